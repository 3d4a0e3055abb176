// SPDX-License-Identifier: MIT
#pragma once
// Reads a PyTorch out-of-memory message (pasted alone or inside a whole traceback or log) into
// numbers. The forms, from PyTorch's sources:
//  CPU   "DefaultCPUAllocator: not enough memory: you tried to allocate N bytes."
//        (Windows; before 1.6 it ended "Buy new RAM!")
//        "DefaultCPUAllocator: can't allocate memory: you tried to allocate N bytes. Error code 12
//        (Cannot allocate memory)" (POSIX)
//        "$ Torch: not enough memory: you tried to allocate 22GB. Buy new RAM!" (TH, <= 0.4)
//  GPU   "CUDA out of memory. Tried to allocate X (GPU 0; Y total capacity; Z already allocated;
//        W free; [A allowed; ]V reserved in total by PyTorch)" (1.5-2.0; before 1.5 "V cached")
//        "CUDA out of memory. Tried to allocate X. GPU 0 has a total capacity of Y of which W is
//        free. [Including non-PyTorch memory, this process has P memory in use. | Process N has
//        P memory in use. ...][A allowed; ]Of the allocated memory Z is allocated by PyTorch,
//        [with Q allocated in private pools (e.g., CUDA Graphs), ]and V is reserved by PyTorch
//        but unallocated." (2.1 on; 2.1 spells "capacty"). HIP/XPU/MLU print the same.
//        "MPS backend out of memory (MPS allocated: Z, other allocations: O, max allowed: M).
//        Tried to allocate X on private pool."
//        "CUDA error: out of memory" (a cudaMalloc outside the caching allocator: no numbers)
// Sizes PyTorch prints with two decimals (GPU forms) are only known to +-0.005 of the unit.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace memviz::workshop {

enum class OomForm {
    Unrecognized,
    CpuNotEnoughMemory, // DefaultCPUAllocator: not enough memory
    CpuCannotAllocate,  // DefaultCPUAllocator: can't allocate memory ... Error code
    TorchLegacy,        // $ Torch: not enough memory ... GB. Buy new RAM!
    GpuSemicolons,      // (GPU 0; ... total capacity; ...)
    GpuSentences,       // GPU 0 has a total capacity of ... of which ... is free.
    MpsBackend,         // MPS backend out of memory (...)
    GpuNoNumbers,       // CUDA error: out of memory
};

const char* oomFormId(OomForm form); // "cpu-not-enough-memory", ... (stable, for JSON)

// A byte count as printed: `bytes` is the printed value, the true value lies in [low, high].
struct PrintedSize {
    std::int64_t bytes = 0;
    std::int64_t low = 0, high = 0;
    std::string text; // as printed: "20.00 MiB", "717574400 bytes"
    bool exact() const { return low == high; }
};

struct ProcessMemory {
    std::int64_t pid = -1; // -1: "this process"
    PrintedSize inUse;
};

struct OomMessage {
    OomForm form = OomForm::Unrecognized;
    std::string backend; // "CPU", "CUDA", "HIP", "XPU", "MLU", "MPS"
    int device = -1;     // GPU index when printed
    std::optional<PrintedSize> request;
    std::optional<PrintedSize> total, free, allocated, reserved, reservedUnallocated, allowed, privatePools;
    std::optional<PrintedSize> otherAllocations; // MPS "other allocations"
    std::vector<ProcessMemory> processes;
    int errorCode = 0;                       // POSIX errno (12: ENOMEM)
    std::string errorText;                   // "Cannot allocate memory"
    bool buyNewRam = false;                  // the old CPU messages' advice
    bool suggestsExpandableSegments = false; // the message itself names expandable_segments
    bool suggestsMaxSplitSize = false;       // ... or max_split_size_mb (1.10-2.0)
    std::string excerpt;                     // the recognised message, whitespace collapsed

    bool recognized() const { return form != OomForm::Unrecognized; }
    bool isGpu() const { return backend != "CPU" && !backend.empty(); }
};

// Never throws; text of any length and content gives OomForm::Unrecognized at worst.
OomMessage parseOomMessage(std::string_view text);

} // namespace memviz::workshop
