// SPDX-License-Identifier: MIT
#pragma once
// gzip and zstd encoders for test inputs (zlib and libzstd, as the importers use).
#include <QByteArray>
#include <zlib.h>
#include <zstd.h>

namespace memviz::test {

inline QByteArray gzipped(const QByteArray& data) {
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY); // +16: gzip wrapper
    QByteArray out(static_cast<qsizetype>(deflateBound(&z, static_cast<uLong>(data.size())) + 32), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.constData()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    deflate(&z, Z_FINISH);
    out.resize(static_cast<qsizetype>(z.total_out));
    deflateEnd(&z);
    return out;
}

inline QByteArray zstded(const QByteArray& data) {
    QByteArray out(static_cast<qsizetype>(ZSTD_compressBound(static_cast<std::size_t>(data.size()))), '\0');
    const std::size_t n = ZSTD_compress(out.data(), static_cast<std::size_t>(out.size()), data.constData(),
                                        static_cast<std::size_t>(data.size()), 3);
    out.resize(static_cast<qsizetype>(n));
    return out;
}

} // namespace memviz::test
