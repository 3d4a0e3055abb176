// SPDX-License-Identifier: MIT
#include "trace/FrameFolder.h"

#include <stdexcept>

namespace memviz {

const std::vector<FoldPreset>& foldPresets() {
    static const std::vector<FoldPreset> presets = {
        {"python", "Python's own machinery: the interpreter's C frames, importlib, runpy, threading, contextlib",
         {{"^_?Py[A-Z_]|^_?PyEval|^_?PyObject_|^_?PyFunction_|^_?PyVectorcall|^cfunction_|^method_vectorcall|^slot_tp_|"
           "^call_function$|^function_code_fastcall$|^pymain_|^Py_RunMain$|^Py_BytesMain$|^run_mod$|^run_eval_code_obj$|"
           "^_PyRun_|^PyRun_",
           ""},
          {"", "^<frozen |(^|/)(runpy|threading|contextlib|functools)\\.py$|(^|/)importlib/"}}},
        {"torch", "PyTorch dispatch and autograd plumbing: torch/_ops.py, Module._call_impl, c10::Dispatcher, autograd engine",
         {{"", "(^|/)torch/_ops\\.py$|(^|/)torch/utils/_contextlib\\.py$|(^|/)torch/_tensor\\.py$|(^|/)torch/autograd/(function|graph|__init__)\\.py$"},
          {"^(_call_impl|_wrapped_call_impl)$", "(^|/)torch/nn/modules/module\\.py$"},
          {"c10::Dispatcher|c10::impl::|c10::BoxedKernel|c10::KernelFunction|at::_ops::|torch::autograd::(Engine|VariableType|"
           "impl|generated|autograd_dispatch)|torch::jit::|pybind11::|THPVariable_|c10::cuda::CUDACachingAllocator|"
           "c10::CachingDeviceAllocator|at::native::|at::detail::empty|at::empty|at::\\(anonymous namespace\\)",
           ""}}},
        {"alloc", "libc and libstdc++ allocation wrappers: malloc, calloc, realloc, operator new, std::allocator, ...",
         {{"^(malloc|calloc|realloc|free|posix_memalign|aligned_alloc|memalign|valloc|__libc_malloc|__libc_calloc|"
           "__libc_realloc|_int_malloc|operator new|operator new\\[\\])(\\(.*)?$|^__gnu_cxx::new_allocator|^std::allocator|"
           "^std::__new_allocator|^std::allocator_traits|^std::_Vector_base<.*>::_M_allocate|^std::__cxx11::basic_string<.*>::_M_create",
           ""}}},
        {"unresolved", "frames without a symbol or a file (shown as an address); not a default",
         {{"^0x[0-9a-fA-F]+$", "^$"}}},
        {"startup", "the C runtime's startup frames above main: _start, __libc_start_main, __libc_start_call_main",
         {{"^(_start|__libc_start_main|__libc_start_main_impl|__libc_start_call_main|__libc_start_main_alias_2)$", ""}}},
    };
    return presets;
}

std::vector<std::string> defaultFoldPresets() { return {"python", "torch", "alloc", "startup"}; }

FrameFolder FrameFolder::fromPresets(const std::vector<std::string>& ids) {
    FrameFolder f;
    for (const std::string& id : ids) {
        const FoldPreset* found = nullptr;
        for (const FoldPreset& p : foldPresets())
            if (id == p.id) found = &p;
        if (!found) {
            std::string known;
            for (const FoldPreset& p : foldPresets()) known += (known.empty() ? "" : ", ") + std::string(p.id);
            throw std::invalid_argument("unknown fold preset \"" + id + "\" (presets: " + known + ", none)");
        }
        for (const FoldPattern& p : found->patterns) f.addPattern(p);
    }
    return f;
}

void FrameFolder::addPattern(const FoldPattern& p) {
    Rule r;
    r.functionText = p.function;
    r.fileText = p.file;
    try {
        if (!p.function.empty()) r.function = std::regex(p.function, std::regex::ECMAScript | std::regex::optimize);
        if (!p.file.empty()) r.file = std::regex(p.file, std::regex::ECMAScript | std::regex::optimize);
    } catch (const std::regex_error& e) {
        throw std::invalid_argument("bad fold pattern \"" + (p.function.empty() ? p.file : p.function) + "\": " + e.what());
    }
    r.anyFunction = p.function.empty();
    r.anyFile = p.file.empty();
    rules_.push_back(std::move(r));
}

bool FrameFolder::elides(std::string_view function, std::string_view fileAsWritten) const {
    // Windows paths (snapshots taken on Windows) match the same '/' patterns.
    std::string file(fileAsWritten);
    for (char& c : file)
        if (c == '\\') c = '/';
    for (const Rule& r : rules_) {
        if (r.anyFunction && r.anyFile) continue;
        if (!r.anyFunction && !std::regex_search(function.begin(), function.end(), r.function)) continue;
        if (!r.anyFile && !std::regex_search(file.begin(), file.end(), r.file)) continue;
        return true;
    }
    return false;
}

} // namespace memviz
