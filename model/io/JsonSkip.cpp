// SPDX-License-Identifier: MIT
#include "io/JsonSkip.h"

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define MEMVIZ_SKIP_AVX2 1
#endif

namespace memviz {

namespace {

// Where the scan stands between bytes.
struct SkipState {
    int depth = 0;
    bool inString = false;
    bool escaped = false; // the previous byte was a backslash inside a string
};

// Byte by byte over data[i, end): returns one past the closing bracket, or 0.
std::size_t scalarSkip(const char* data, std::size_t i, std::size_t end, SkipState& s) {
    for (; i < end; ++i) {
        const char c = data[i];
        if (s.inString) {
            if (s.escaped) s.escaped = false;
            else if (c == '\\') s.escaped = true;
            else if (c == '"') s.inString = false;
        } else if (c == '"') {
            s.inString = true;
        } else if (c == '{' || c == '[') {
            if (++s.depth > kMaxJsonDepth) return kJsonTooDeep;
        } else if (c == '}' || c == ']') {
            if (--s.depth == 0) return i + 1;
        }
    }
    return 0;
}

#if defined(__SSE2__)
std::uint64_t mask64(const __m128i (&v)[4], char c) {
    const __m128i k = _mm_set1_epi8(c);
    std::uint64_t m = 0;
    for (int j = 0; j < 4; ++j) m |= std::uint64_t(std::uint32_t(_mm_movemask_epi8(_mm_cmpeq_epi8(v[j], k)))) << (16 * j);
    return m;
}

// One 64-byte block at data[i] without backslashes, from its masks (bit k: the byte at i + k;
// `quotesPrefix`: the prefix XOR of its quotes): one past the bracket that closes the
// container, kJsonTooDeep, or 0 when that bracket is not in this block.
std::size_t blockBrackets(std::size_t i, std::size_t size, std::uint64_t quotesPrefix, std::uint64_t open,
                          std::uint64_t close, SkipState& s) {
    // Inside a string: from an opening quote up to (not including) its closing quote.
    const std::uint64_t inString = quotesPrefix ^ (s.inString ? ~std::uint64_t{0} : 0);
    s.inString = inString >> 63;
    open &= ~inString;
    std::uint64_t brackets = open | (close & ~inString);
    while (brackets) {
        const int k = __builtin_ctzll(brackets);
        if (i + static_cast<std::size_t>(k) >= size) return 0; // in the padding: the data ends first
        if (open >> k & 1) {
            if (++s.depth > kMaxJsonDepth) return kJsonTooDeep;
        } else if (--s.depth == 0) {
            return i + static_cast<std::size_t>(k) + 1;
        }
        brackets &= brackets - 1;
    }
    return 0;
}

// Bit i: an odd number of the set bits of x are at positions <= i.
std::uint64_t prefixXor(std::uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}
#endif

#if defined(MEMVIZ_SKIP_AVX2)
// The same scan with AVX2 compares (32 bytes each) and a carry-less multiply for the prefix
// XOR, on processors that have them (chosen at run time; the build targets plain x86-64).
__attribute__((target("avx2,pclmul"))) std::uint64_t mask64Avx2(__m256i lo, __m256i hi, char c) {
    const __m256i k = _mm256_set1_epi8(c);
    return std::uint64_t(std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, k)))) |
           std::uint64_t(std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, k)))) << 32;
}

__attribute__((target("avx2,pclmul"))) std::size_t skipAvx2(const char* data, std::size_t i, std::size_t size) {
    SkipState s;
    for (; i < size; i += 64) {
        const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i));
        const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(data + i + 32));
        const std::uint64_t backslash = mask64Avx2(lo, hi, '\\');
        if (backslash || s.escaped) {
            const std::size_t end = scalarSkip(data, i, i + 64 < size ? i + 64 : size, s);
            if (end) return end;
            continue;
        }
        const std::uint64_t quotes = mask64Avx2(lo, hi, '"');
        const std::uint64_t prefix = static_cast<std::uint64_t>(
            _mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, static_cast<long long>(quotes)), _mm_set1_epi8(-1), 0)));
        if (const std::size_t end = blockBrackets(i, size, prefix, mask64Avx2(lo, hi, '{') | mask64Avx2(lo, hi, '['),
                                                  mask64Avx2(lo, hi, '}') | mask64Avx2(lo, hi, ']'), s))
            return end;
    }
    return 0;
}

const bool haveAvx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul");
#endif

} // namespace

std::size_t skipJsonContainer(const char* data, std::size_t from, std::size_t size) {
#if defined(MEMVIZ_SKIP_AVX2)
    if (haveAvx2) return skipAvx2(data, from, size);
#endif
    SkipState s;
    std::size_t i = from;
#if defined(__SSE2__)
    // Blocks of 64 that start before `size`: the padding after it reads as plain bytes.
    for (; i < size; i += 64) {
        __m128i v[4];
        for (int j = 0; j < 4; ++j) v[j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + i + 16 * j));
        const std::uint64_t backslash = mask64(v, '\\');
        if (backslash || s.escaped) {
            // Escapes are rare in traces: this block byte by byte.
            const std::size_t end = scalarSkip(data, i, i + 64 < size ? i + 64 : size, s);
            if (end) return end;
            continue;
        }
        if (const std::size_t end = blockBrackets(i, size, prefixXor(mask64(v, '"')), mask64(v, '{') | mask64(v, '['),
                                                  mask64(v, '}') | mask64(v, ']'), s))
            return end;
    }
    return 0;
#else
    return scalarSkip(data, i, size, s);
#endif
}

} // namespace memviz
