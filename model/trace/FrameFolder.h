// SPDX-License-Identifier: MIT
#pragma once
// Frame folding for call trees: regular expressions over a frame's function and file; a frame
// that matches one is elided (its callees hang under its caller, its own value goes to the
// caller). Presets name the usual plumbing: Python's own machinery, PyTorch dispatch and
// autograd, libc/libstdc++ allocation wrappers, the C runtime's startup frames.
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace memviz {

struct FoldPattern {
    std::string function; // ECMAScript regex searched in the function name; empty: any
    std::string file;      // ... in the file path; empty: any
};

struct FoldPreset {
    const char* id;
    const char* description;
    std::vector<FoldPattern> patterns;
};

// Every preset, in the order help texts list them.
const std::vector<FoldPreset>& foldPresets();
// The preset ids that the window and `memviz stacks` apply when none are asked for.
std::vector<std::string> defaultFoldPresets();

class FrameFolder {
public:
    FrameFolder() = default;
    // Throws std::invalid_argument naming the unknown preset (and the known ones).
    static FrameFolder fromPresets(const std::vector<std::string>& ids);
    // Throws std::invalid_argument naming a bad regular expression.
    void addPattern(const FoldPattern& p);

    bool empty() const { return rules_.empty(); }
    bool elides(std::string_view function, std::string_view file) const;

private:
    struct Rule {
        std::string functionText, fileText;
        std::regex function, file;
        bool anyFunction = true, anyFile = true;
    };
    std::vector<Rule> rules_;
};

} // namespace memviz
