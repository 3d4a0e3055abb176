<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>OomReportBuilder</name>
    <message>
        <source>Requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total capacity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free on the device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated by PyTorch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reserved by PyTorch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reserved but unallocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing for this allocation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Capacity that would have fit it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float16 or bfloat16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float64 or int64</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>uint8, int8 or bool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU out of memory (DefaultCPUAllocator: not enough memory)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU out of memory (DefaultCPUAllocator: can&apos;t allocate memory)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU out of memory (the old TH allocator of PyTorch 0.4 and earlier)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 out of memory (the message of PyTorch 1.x to 2.0)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 out of memory (the message of PyTorch 2.1 and later)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apple MPS out of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 error: out of memory (outside PyTorch&apos;s caching allocator)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not an out-of-memory message memviz recognizes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tensor itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>between %1 and %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed (memory fraction)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Maximum allowed (MPS watermark)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In CUDA graph private pools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This process in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Process %1 in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch asked the operating system for one block of %1 and did not get it. The message does not say how much memory was free, so the whole request counts as missing: to run this unchanged, the machine needs at least %2 more free memory (RAM plus swap) at that moment. That is the exact amount behind &quot;buy new RAM&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This old message printed whole gigabytes, rounded down: the request was between %1 and %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error code 12 is ENOMEM: the kernel refused the allocation. Besides physical memory, a container memory limit, ulimit -v or strict overcommit settings can cause it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One tensor of %1 is rarely intended. Check its shape: loading a whole dataset into one tensor (load it in batches with a DataLoader instead), an accidental broadcast such as x[:, None] - y[None, :], or a dimension in the wrong place are the usual causes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The caching allocator asks the driver for whole segments: any tensor between 1 MiB and 10 MiB gets a new 20 MiB segment when no cached block fits. So the tensor that failed was between 1 and 10 MiB; the device was already full.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The caching allocator keeps tensors of up to 1 MiB in 2 MiB segments: the tensor that failed was at most 1 MiB; the device was already full.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The caching allocator rounds large requests up to a multiple of 2 MiB: the tensor itself was between %1 and %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This one request is larger than the whole %1 the process may use: no amount of freeing helps. Make this tensor smaller (batch, sequence length, resolution) or split the computation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It needed %1 and only %2 was available: %3 short. A device with at least %4, everything else the same, would have had room for this allocation; the allocations after it may need more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The limit was set by torch.cuda.set_per_process_memory_fraction: %1 allowed, not the whole device.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch holds %1 reserved but unallocated, more than the %2 missing, but in pieces too small for one block of %3: fragmentation. PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (PyTorch 2.1 and later; max_split_size_mb before) lets the allocator grow segments instead of leaving holes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processes listed by id hold %1 on this device (inside a container your own process can appear under another id). nvidia-smi shows who they are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This process uses %1 outside PyTorch&apos;s allocator: the CUDA context, library workspaces (cuBLAS, cuDNN) and anything else that calls cudaMalloc directly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MPS allocator stopped at its high-watermark limit (max allowed), a share of the unified memory that macOS shares between CPU and GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It needed %1 and %2 was left under the limit: %3 short.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PYTORCH_MPS_HIGH_WATERMARK_RATIO raises the limit (0.0 removes it) at the risk of the whole system running out of memory; reducing the memory the model needs is safer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CUDA runtime itself failed to allocate, outside PyTorch&apos;s caching allocator: while creating the context, cuBLAS or cuDNN handles and workspaces, or in a library that calls cudaMalloc directly. No numbers are printed; nvidia-smi shows what else uses the device. Kernel errors are reported asynchronously, so the line in the traceback may not be the one that failed (CUDA_LAUNCH_BLOCKING=1 finds it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste a PyTorch out-of-memory message (the last lines of the traceback are enough).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A DataLoader worker process was killed, usually by the Linux OOM killer: each worker holds its own copy of what the Dataset keeps in memory. Fewer workers (num_workers), a Dataset that reads samples lazily, or more RAM help.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;Killed&quot; without a Python traceback means the Linux OOM killer ended the process: the whole machine ran out of memory, so PyTorch had no chance to print a message. dmesg shows the kill and the process&apos;s size at that moment. The CPU lessons apply.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This mentions running out of memory, but not in a form memviz can read numbers from. Paste the whole line that starts with RuntimeError or torch.OutOfMemoryError.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This does not look like a PyTorch out-of-memory message.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memviz reads these forms:
• DefaultCPUAllocator: not enough memory: you tried to allocate N bytes.
• DefaultCPUAllocator: can&apos;t allocate memory: you tried to allocate N bytes. Error code 12 (Cannot allocate memory)
• $ Torch: not enough memory: you tried to allocate 22GB. Buy new RAM!
• CUDA out of memory. Tried to allocate X (GPU 0; Y total capacity; Z already allocated; W free; V reserved in total by PyTorch)
• CUDA out of memory. Tried to allocate X. GPU 0 has a total capacity of Y of which W is free. ... Of the allocated memory Z is allocated by PyTorch, and V is reserved by PyTorch but unallocated.
• MPS backend out of memory (MPS allocated: ..., max allowed: ...). Tried to allocate X.
• CUDA error: out of memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lets the caching allocator grow segments instead of leaving gaps; up to the %1 reserved but unallocated becomes usable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load the data in batches with a DataLoader</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep one batch in memory instead of the whole tensor; the tensor-size lesson computes a batch&apos;s size.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensors of this size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixes for %1, most saving first:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>saves %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensors of this size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixes for %1, most saving first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the lesson</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>memviz store (*.memviz)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All supported files (*.memviz %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown image format for %1 (use .png, .svg or .pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Plot (PNG, SVG, PDF)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Table as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>peak %1: %2 at %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 allocated (running sum of Bytes)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz</name>
    <message>
        <source>Time since trace start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instructions executed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory allocated and freed so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 instructions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after %1 allocated and freed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::AliveAllocationsModel</name>
    <message>
        <source>since before the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no stack recorded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>freed at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 bytes: the allocator&apos;s block, as the final segments show it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %L1 bytes: the trace records only the requested size; the allocator rounds requests up to multiples of 512 bytes (and may not split a larger block)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 bytes asked for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated before the trace began (recording started later, or its ring buffer dropped the alloc). It is part of the pre-existing baseline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated by entry %L1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The allocator&apos;s block size; ≈ marks an estimate from the requested size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated in</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::AllocationSitesModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes this site held when the heap was at its peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes never freed (heaptrack&apos;s leak suppressions applied)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls to allocation functions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations freed right after they were made, with no other allocation between</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocation site</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Location</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leaked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temporary</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::AllocationSitesView</name>
    <message>
        <source>Filter allocation sites</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 calls to allocation functions, %L2 temporary; peak heap %3; leaked %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1 more in suppressed leaks)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; peak RSS %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::AllocationsView</name>
    <message>
        <source>Search: 0x address, or function / file name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the moment allocated memory peaked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the moment before the first trace entry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the moment after the last trace entry (when the snapshot was taken)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 allocations alive, %2 requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %L1 of them (%2) were made before the trace began, so their alloc is not in it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — %L1 match the search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an allocation to see where it was made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — allocated before the trace began; this is where it was freed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — allocated before the trace began (stack from the final segments)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::AllocatorStateView</name>
    <message>
        <source>Click a block to see where it was allocated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allocated (a colour per block)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#666&apos;&gt;Rebuilding the allocator state %1…&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Reserved&lt;/b&gt; %1 in %L2 segments &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;allocated&lt;/b&gt; %3 in %L4 blocks (%5 requested) &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;pending free&lt;/b&gt; %6 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;free&lt;/b&gt; (reserved &amp;minus; allocated) %7, of which &lt;b&gt;inactive split&lt;/b&gt; %8 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;largest free gap&lt;/b&gt; %9</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;span style=&apos;color:#666&apos;&gt;Blocks the trace brings back show the requested size (the trace does not record the allocator&apos;s rounding); blocks that still exist at the end show their real size.&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;span style=&apos;color:#a00&apos;&gt;%L1 blocks lie outside every segment (inconsistent snapshot)&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block 0x%1, %2 (%3 requested)%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, pending free</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::AsyncTableView</name>
    <message>
        <source>Filter %1 (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No trace open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in %2 – %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, whole trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::CallSpanOverlay</name>
    <message>
        <source>calls of %1: %2 in view%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (first %1 shown)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::LearnWindow</name>
    <message>
        <source>memviz – Learn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Previous Lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Next Lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Plot (PNG, SVG, PDF)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Table as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presenter Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;High Contrast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Larger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Smaller</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Normal Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scale ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This page has no plot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This page has no table.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::MainWindow</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memviz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import cancelled; nothing was stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Sample Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;Timeline (PNG, SVG, PDF)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Ta&amp;ble as CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear Selection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Filter Table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Learn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Lessons…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;OOM Decoder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;How to Use the Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wheel: zoom the time axis. Drag: pan.
Shift+drag or right-drag: select a time window; the operator table then shows only that window.
Double-click or Esc: clear the selection. Home: whole trace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About memviz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About memviz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memviz %1
See where memory went, and what to change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the &amp;System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current tab has no table.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An import is still running; cancel it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 – memviz</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No trace open – Ctrl+O to open one, or drop a file here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 peak %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>devices: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Operators</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Memory Events</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::MassifTreeModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Of total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Location</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::MassifView</name>
    <message>
        <source>Detailed snapshot:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%2 – %3 – %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (peak)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::MemoryEventsModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alive at the end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Released at</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lifetime</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator (innermost, same thread)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Thread</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::MemoryEventsView</name>
    <message>
        <source>memory events</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::NativeTabs</name>
    <message>
        <source>Allocation &amp;sites</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Heap tree</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::OomDecoderPage</name>
    <message>
        <source>Paste a PyTorch out-of-memory message, or the end of the traceback. The decoder reads the numbers, converts them to both unit systems, shows tensors of the requested size and how much memory was missing, and ranks what would fix it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Examples:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a real message…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU, Windows: not enough memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU, Linux: can&apos;t allocate memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU, PyTorch 0.4: Buy new RAM!</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA, PyTorch 1.x: (GPU 0; …)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA, PyTorch 2.x: fragmentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA, PyTorch 2.x: larger than free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apple MPS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA error without numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paste the message here…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quantity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OOM decoder: what an out-of-memory message says</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::OpsTableModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Net</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::OpsView</name>
    <message>
        <source>operators</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::ProfilerOpsModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input Shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sum of Bytes of %1 memory events inside each call (Self: minus its children)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Mem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self %1 Mem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations (positive Bytes only) on %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Allocation Count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 Allocation Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self %1 Allocation Count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self %1 Allocation Size</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::ProfilerOpsView</name>
    <message>
        <source>operators</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Group by input shapes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One row per operator and input shapes, like key_averages(group_by_input_shape=True)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::SegmentMapWidget</name>
    <message>
        <source>No segments reserved at this moment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segment %1: %2, %3 in %L4 blocks, largest free %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click a segment to see it full width here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All segments, largest first, to the scale of the largest (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segment %1: %2, %3 free (largest gap %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Free space</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Block %1: %2 (%3 requested)%4%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, freed, waiting for other streams</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
(size as the trace records it: the requested bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Allocated in %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::SegmentsModel</name>
    <message>
        <source> (expandable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Freed by the program, waiting for other streams&apos; work before the allocator reuses it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reserved but not in any block: reusable by the allocator, still held from other programs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The largest request this segment could serve without reserving more memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Segment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stream</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::SiteStacksModel</name>
    <message>
        <source>%1 calls, %2 at the peak, %3 leaked, %4 temporary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (inlined)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backtrace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Location</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Module</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::SnapshotPanel</name>
    <message>
        <source>&amp;Allocations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocator &amp;State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;napshot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OOM: asked %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tabs below: the peak</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tabs below: entry %L1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::SnapshotSession</name>
    <message>
        <source>entry %L1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no trace recorded: the state the snapshot was taken in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>before the first of %L1 entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after entry %L1 of %L2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (the peak)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (the end)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::SnapshotSummaryView</name>
    <message>
        <source>Trace entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocations / frees</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Peak allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %2 (after entry %L3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated at the end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reserved (segments)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at the start, %2 at the end in %L3 segments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before the trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in %L2 allocations were made before the trace began (%L3 of them freed during it): recording started after them, or its ring buffer (max_entries) dropped their alloc. Allocated bytes start from this baseline, so they never go negative.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none recorded: the numbers are the state the snapshot was taken in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#070&apos;&gt;&amp;#10004; consistent&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#a00&apos;&gt;&amp;#10008; inconsistent&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>: allocated bytes replayed to the end %1; the final segments&apos; allocated blocks %2 requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> + %1 pending free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (%1 as the allocator rounds them)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %L1 allocations alive in the trace are not in the segments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; %L1 sizes differ from their block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Consistency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entries per action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Out of memory&lt;/h3&gt;&lt;table&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>asked for %1; the device had %2 free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(not recorded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Annotations&lt;/h3&gt;&lt;table&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(not placed: the trace has no times)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;Allocator settings&lt;/h3&gt;&lt;table&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#777&apos;&gt;(empty)&lt;/span&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;h3&gt;File&lt;/h3&gt;&lt;table&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::SparseLesson</name>
    <message>
        <source>A dense tensor stores every element, zero or not. &lt;code&gt;torch.sparse_coo_tensor&lt;/code&gt; stores only the non-zeros: for each one, an int64 index per dimension (8 bytes each) and its value. A 2-D float32 non-zero therefore costs 2 × 8 + 4 = 20 bytes instead of 4, so COO only saves memory when fewer than 4 / 20 = 20% of the elements are non-zero: the &lt;b&gt;break-even density&lt;/b&gt;. CSR shares the row indices and breaks even later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rows:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Columns:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Values:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Density (non-zeros, %):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dense: &lt;b&gt;%1&lt;/b&gt;. At %2 density (%3 non-zeros): COO &lt;b&gt;%4&lt;/b&gt;, CSR &lt;b&gt;%5&lt;/b&gt;.&lt;br&gt;COO breaks even at &lt;b&gt;%6&lt;/b&gt; = %7 / (2 × 8 + %7); CSR at &lt;b&gt;%8&lt;/b&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>density</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>non-zeros</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dense bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>COO bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSR bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>smallest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>COO</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dense</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>COO (indices + values)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>COO break-even %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>density (% non-zero)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sparse tensors: COO vs dense</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::StackPane</name>
    <message>
        <source>Select an allocation to see where it was made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:#666&apos;&gt;No stack was recorded (the allocation is older than the recording, or stacks were not recorded).&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::TensorSizeLesson</name>
    <message>
        <source>A tensor&apos;s memory is its number of elements times the size of one element: float32 takes 4 bytes, float16 and bfloat16 take 2. The same byte count reads differently in &lt;b&gt;MB&lt;/b&gt; (10&lt;sup&gt;6&lt;/sup&gt; bytes, what articles and disk vendors write) and &lt;b&gt;MiB&lt;/b&gt; (2&lt;sup&gt;20&lt;/sup&gt; = 1,048,576 bytes, what PyTorch and nvidia-smi print): 717,574,400 bytes are 717.6 MB but 684.3 MiB. Type a shape or pick an example.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Examples:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick an example…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch.ones((112121, 1, 40, 40)): the article&apos;s tensor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch.randn(100000, 3, 256, 256): a whole dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1000 × 3 × 4096 × 4096 float32 images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Element type:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 B per element</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DataLoader batch size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dtype</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bytes per element</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MB (10^6)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MiB (2^20)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GB (10^9)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GiB (2^30)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a shape such as &lt;code&gt;torch.ones((112121, 1, 40, 40))&lt;/code&gt; or &lt;code&gt;1000x3x224x224&lt;/code&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This shape has more bytes than a 64-bit integer can count.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 elements × %2 bytes = &lt;b&gt;%3 bytes&lt;/b&gt; = &lt;b&gt;%4&lt;/b&gt; = &lt;b&gt;%5&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded in batches of %1 (a DataLoader over the first dimension), one batch holds %2 = %3 instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (1000^%2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (1024^%2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>element type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the number printed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tensor size: bytes, MB and MiB</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::TimelinePlot</name>
    <message>
        <source>Memory (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>memviz::ViewsLesson</name>
    <message>
        <source>A tensor is a view on a storage: a shape, strides (how far to step in memory for each dimension) and an offset. &lt;code&gt;view&lt;/code&gt;, &lt;code&gt;reshape&lt;/code&gt; of a contiguous tensor, &lt;code&gt;transpose&lt;/code&gt; and slicing only make new views: no bytes are copied, and the storage stays alive as long as any view of it does. &lt;code&gt;contiguous()&lt;/code&gt; copies when the strides are not row-major, &lt;code&gt;clone()&lt;/code&gt; always copies, and &lt;code&gt;reshape()&lt;/code&gt; copies when no view is possible.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Program:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>view, transpose, reshape and contiguous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a small slice keeps the whole storage alive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>strided slices: every other row, half the columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clone() vs view(): what del frees</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>statement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shape</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>strides</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>contiguous</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>storage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>freed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alive after</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shared (a view)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new (a copy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x takes &lt;b&gt;%1&lt;/b&gt;. The statements after it copied &lt;b&gt;%2&lt;/b&gt;; at most &lt;b&gt;%3&lt;/b&gt; were alive at once, &lt;b&gt;%4&lt;/b&gt; at the end.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>alive after the statement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allocated by it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>statement #</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Views vs copies</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
