// SPDX-License-Identifier: MIT
#include "formats/massif/MassifImporter.h"

#include "core/Progress.h"
#include "formats/massif/MassifReader.h"
#include "io/InputFile.h"
#include "io/LineReader.h"

namespace memviz {

std::vector<std::string> MassifImporter::filePatterns() const { return {"massif.out.*", "*.massif", "*.ms"}; }

int MassifImporter::sniff(std::string_view head, std::string_view fileName) const {
    // "desc: ..." lines, then "cmd: ..." and "time_unit: ...".
    const bool startsRight = head.starts_with("desc:") || head.starts_with("cmd:");
    if (!startsRight) return 0;
    const bool hasUnit = head.find("\ntime_unit:") != std::string_view::npos;
    const bool hasSnapshot = head.find("\nsnapshot=") != std::string_view::npos;
    if (hasUnit && hasSnapshot) return 100;
    if (hasUnit || fileName.find("massif") != std::string_view::npos) return 80;
    return 0;
}

void MassifImporter::run(InputFile& in, TraceWriter& out, const Progress& progress) const {
    LineReader lines(in);
    MassifReader reader(lines, out);
    reader.run(progress);
    progress.update(in.fileSize(), in.fileSize());
}

} // namespace memviz
