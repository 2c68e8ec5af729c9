#error broken
