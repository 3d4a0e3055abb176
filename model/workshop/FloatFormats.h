// SPDX-License-Identifier: MIT
#pragma once
// Lesson 3's precision numbers, computed from the bit layout of each floating-point format
// (sign, exponent bits, mantissa bits) rather than typed in: machine epsilon 2^-m, the
// largest finite value (2 - 2^-m) * 2^bias, the smallest normal 2^(1 - bias), and about
// m * log10(2) + 1 significant decimal digits.
#include <string>
#include <vector>

namespace memviz::workshop {

struct FloatFormat {
    const char* name; // "float32"
    int exponentBits;
    int mantissaBits; // stored fraction bits (the leading 1 is implicit)
    int bits() const { return 1 + exponentBits + mantissaBits; }
    int bytes() const { return bits() / 8; }
    int bias() const { return (1 << (exponentBits - 1)) - 1; }
    double epsilon() const;       // distance from 1.0 to the next representable number
    double maxFinite() const;     // 65504 for float16
    double minNormal() const;     // 2^-14 for float16
    double decimalDigits() const; // significant decimal digits: (m + 1) * log10(2)
};

// float64, float32, bfloat16, float16 (torch's floating dtypes).
const std::vector<FloatFormat>& floatFormats();
const FloatFormat* findFloatFormat(const std::string& name);

} // namespace memviz::workshop
