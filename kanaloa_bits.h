/* Bit counts shared by the compiled cores (kanaloa_core.pyx, cannonball_core.pyx).

   GCC and Clang turn __builtin_popcountll into one instruction where the target has it; on baseline
   x86-64 (no POPCNT) it becomes a library call, which the inline SWAR count below beats.  Builds for
   other compilers use the portable forms. */
#ifndef KANALOA_BITS_H
#define KANALOA_BITS_H

#if defined(__GNUC__) && (defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__)))
static inline int kb_popcount(unsigned long long x) { return __builtin_popcountll(x); }
#else
static inline int kb_popcount(unsigned long long x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
#endif

/* The index of the lowest set bit; x must not be 0. */
#if defined(__GNUC__)
static inline int kb_lowest_bit(unsigned long long x) { return __builtin_ctzll(x); }
#elif defined(_MSC_VER)
#include <intrin.h>
static inline int kb_lowest_bit(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
#else
static inline int kb_lowest_bit(unsigned long long x) { int i = 0; while (!(x & 1)) { x >>= 1; i++; } return i; }
#endif

#endif
