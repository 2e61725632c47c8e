# bench_pingpong: the run-time library's back ends side by side (v_send /
# v_receive latency and bandwidth, an all-to-all among 2^3 processors).
# Included from runtime/CMakeLists.txt.  `cmake --build build --target
# bench_runtime` runs both back ends in one run and prints threads/MPI.

add_executable(bench_pingpong ${CMAKE_CURRENT_LIST_DIR}/bench_pingpong.c)
target_link_libraries(bench_pingpong PRIVATE hyperdo_rt)

if(TARGET hyperdo_rt_mpi)
  add_executable(bench_pingpong_mpi ${CMAKE_CURRENT_LIST_DIR}/bench_pingpong.c)
  target_link_libraries(bench_pingpong_mpi PRIVATE hyperdo_rt_mpi)
  add_custom_target(bench_runtime
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bench_pingpong.sh
            $<TARGET_FILE:bench_pingpong> $<TARGET_FILE:bench_pingpong_mpi> ${MPIEXEC_EXECUTABLE}
    DEPENDS bench_pingpong bench_pingpong_mpi
    COMMENT "v_send/v_receive: threads against MPI (target: threads latency <= 0.5 x MPI)"
    USES_TERMINAL)
else()
  add_custom_target(bench_runtime
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bench_pingpong.sh $<TARGET_FILE:bench_pingpong>
    DEPENDS bench_pingpong
    COMMENT "v_send/v_receive: threads only (MPI not found)"
    USES_TERMINAL)
endif()
