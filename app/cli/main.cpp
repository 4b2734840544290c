#include <cstdio>

int main() { std::puts("rigscope-cli"); return 0; }
