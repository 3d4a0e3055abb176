// SPDX-License-Identifier: MIT
#include "workshop/FloatFormats.h"

#include <cmath>

namespace memviz::workshop {

double FloatFormat::epsilon() const { return std::ldexp(1.0, -mantissaBits); }
double FloatFormat::maxFinite() const { return (2.0 - std::ldexp(1.0, -mantissaBits)) * std::ldexp(1.0, bias()); }
double FloatFormat::minNormal() const { return std::ldexp(1.0, 1 - bias()); }
double FloatFormat::decimalDigits() const { return (mantissaBits + 1) * std::log10(2.0); }

const std::vector<FloatFormat>& floatFormats() {
    static const std::vector<FloatFormat> formats = {
        {"float64", 11, 52}, {"float32", 8, 23}, {"bfloat16", 8, 7}, {"float16", 5, 10}};
    return formats;
}

const FloatFormat* findFloatFormat(const std::string& name) {
    for (const FloatFormat& f : floatFormats())
        if (name == f.name) return &f;
    return nullptr;
}

} // namespace memviz::workshop
