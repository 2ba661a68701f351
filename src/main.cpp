// akm command-line program (being written; see src/cli*.cpp).
int main() { return 0; }
