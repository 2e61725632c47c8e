void nothing(void)
{
}
