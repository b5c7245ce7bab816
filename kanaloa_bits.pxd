# The bit counts both compiled cores use (kanaloa_bits.h): ``from kanaloa_bits cimport popcount, lowest_bit``.
cdef extern from "kanaloa_bits.h":
    int popcount "kb_popcount"(unsigned long long x) nogil
    int lowest_bit "kb_lowest_bit"(unsigned long long x) nogil  # x != 0
