// SPDX-License-Identifier: MIT
#include "workshop/TensorSize.h"

#include <cctype>

namespace memviz::workshop {

namespace {

bool multiply(std::int64_t a, std::int64_t b, std::int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

bool isWordStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

} // namespace

std::optional<TensorSize> tensorSize(const Dims& dims, int elementBytes) {
    if (elementBytes <= 0) return std::nullopt;
    TensorSize s;
    s.elements = 1;
    for (std::int64_t d : dims) {
        if (d < 0 || !multiply(s.elements, d, s.elements)) return std::nullopt;
    }
    if (!multiply(s.elements, elementBytes, s.bytes)) return std::nullopt;
    return s;
}

std::optional<TensorSize> batchSize(const Dims& dims, int elementBytes, std::int64_t batch) {
    if (dims.empty() || batch < 0) return std::nullopt;
    Dims one = dims;
    one[0] = batch;
    return tensorSize(one, elementBytes);
}

std::optional<TensorExpression> parseTensorExpression(std::string_view text) {
    TensorExpression e;
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        // "1000x3x4096x4096": an x right after a digit separates dimensions.
        if ((c == 'x' || c == 'X') && i > 0 && isDigit(text[i - 1])) {
            ++i;
            continue;
        }
        if (isWordStart(c)) {
            // A whole identifier (torch.float16, randn, x2): its digits are not dimensions.
            const std::size_t start = i;
            while (i < text.size() && isWordChar(text[i])) ++i;
            std::string_view word = text.substr(start, i - start);
            while (!word.empty() && word.back() == '.') word.remove_suffix(1);
            if (auto t = findTorchDType(word)) e.dtype = t;
            continue;
        }
        if (isDigit(c)) {
            // Python allows 100_000.
            std::int64_t value = 0;
            while (i < text.size() && (isDigit(text[i]) || (text[i] == '_' && i + 1 < text.size() && isDigit(text[i + 1])))) {
                if (text[i] != '_' && (!multiply(value, 10, value) || __builtin_add_overflow(value, text[i] - '0', &value)))
                    return std::nullopt;
                ++i;
            }
            // "1.5" or "1e5" is not a dimension: skip the rest of such a number.
            if (i < text.size() && (text[i] == '.' || text[i] == 'e' || text[i] == 'E')) {
                while (i < text.size() && (isWordChar(text[i]) || text[i] == '+' || text[i] == '-')) ++i;
                continue;
            }
            e.dims.push_back(value);
            continue;
        }
        ++i;
    }
    if (e.dims.empty()) return std::nullopt;
    return e;
}

} // namespace memviz::workshop
