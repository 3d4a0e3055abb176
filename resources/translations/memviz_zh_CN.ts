<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LiveView</name>
    <message>
        <source>Whole recording</source>
        <translation>整个记录</translation>
    </message>
    <message>
        <source>Last 10 s</source>
        <translation>最近 10 秒</translation>
    </message>
    <message>
        <source>Last 60 s</source>
        <translation>最近 60 秒</translation>
    </message>
    <message>
        <source>Last 5 min</source>
        <translation>最近 5 分钟</translation>
    </message>
</context>
<context>
    <name>OomReportBuilder</name>
    <message>
        <source>Requested</source>
        <translation>请求大小</translation>
    </message>
    <message>
        <source>Total capacity</source>
        <translation>总容量</translation>
    </message>
    <message>
        <source>Free on the device</source>
        <translation>设备空闲</translation>
    </message>
    <message>
        <source>Allocated by PyTorch</source>
        <translation>PyTorch 已分配</translation>
    </message>
    <message>
        <source>Reserved by PyTorch</source>
        <translation>PyTorch 已保留</translation>
    </message>
    <message>
        <source>Reserved but unallocated</source>
        <translation>已保留但未分配</translation>
    </message>
    <message>
        <source>Missing for this allocation</source>
        <translation>本次分配缺少</translation>
    </message>
    <message>
        <source>Capacity that would have fit it</source>
        <translation>能容纳本次分配的容量</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>%1 bytes (%2)</source>
        <translation>%1 字节（%2）</translation>
    </message>
    <message>
        <source>about %1</source>
        <translation>约 %1</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>float16 or bfloat16</source>
        <translation>float16 或 bfloat16</translation>
    </message>
    <message>
        <source>float64 or int64</source>
        <translation>float64 或 int64</translation>
    </message>
    <message>
        <source>uint8, int8 or bool</source>
        <translation>uint8、int8 或 bool</translation>
    </message>
    <message>
        <source>CPU out of memory (DefaultCPUAllocator: not enough memory)</source>
        <translation>CPU 内存不足（DefaultCPUAllocator: not enough memory）</translation>
    </message>
    <message>
        <source>CPU out of memory (DefaultCPUAllocator: can&apos;t allocate memory)</source>
        <translation>CPU 内存不足（DefaultCPUAllocator: can&apos;t allocate memory）</translation>
    </message>
    <message>
        <source>CPU out of memory (the old TH allocator of PyTorch 0.4 and earlier)</source>
        <translation>CPU 内存不足（PyTorch 0.4 及更早版本的旧 TH 分配器）</translation>
    </message>
    <message>
        <source>%1 out of memory (the message of PyTorch 1.x to 2.0)</source>
        <translation>%1 显存不足（PyTorch 1.x 至 2.0 的报错格式）</translation>
    </message>
    <message>
        <source>%1 out of memory (the message of PyTorch 2.1 and later)</source>
        <translation>%1 显存不足（PyTorch 2.1 及以后的报错格式）</translation>
    </message>
    <message>
        <source>Apple MPS out of memory</source>
        <translation>Apple MPS 内存不足</translation>
    </message>
    <message>
        <source>%1 error: out of memory (outside PyTorch&apos;s caching allocator)</source>
        <translation>%1 错误：显存不足（发生在 PyTorch 缓存分配器之外）</translation>
    </message>
    <message>
        <source>Not an out-of-memory message memviz recognizes</source>
        <translation>memviz 无法识别的内存不足报错</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>The tensor itself</source>
        <translation>张量本身</translation>
    </message>
    <message>
        <source>between %1 and %2</source>
        <translation>介于 %1 和 %2 之间</translation>
    </message>
    <message>
        <source>Allowed (memory fraction)</source>
        <translation>允许使用（内存比例）</translation>
    </message>
    <message>
        <source>Maximum allowed (MPS watermark)</source>
        <translation>最大允许（MPS 水位线）</translation>
    </message>
    <message>
        <source>In CUDA graph private pools</source>
        <translation>CUDA Graph 私有内存池中</translation>
    </message>
    <message>
        <source>Other allocations</source>
        <translation>其他分配</translation>
    </message>
    <message>
        <source>This process in use</source>
        <translation>本进程占用</translation>
    </message>
    <message>
        <source>Process %1 in use</source>
        <translation>进程 %1 占用</translation>
    </message>
    <message>
        <source>Error code</source>
        <translation>错误码</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <source>PyTorch asked the operating system for one block of %1 and did not get it. The message does not say how much memory was free, so the whole request counts as missing: to run this unchanged, the machine needs at least %2 more free memory (RAM plus swap) at that moment. That is the exact amount behind &quot;buy new RAM&quot;.</source>
        <translation>PyTorch 向操作系统申请一块 %1 的内存，但没有得到。报错没有说明当时有多少空闲内存，所以整个请求都算作缺口：要让程序原样运行，机器在那一刻至少还需要 %2 的空闲内存（物理内存加交换空间）。这就是“Buy new RAM”背后的确切数字。</translation>
    </message>
    <message>
        <source>This old message printed whole gigabytes, rounded down: the request was between %1 and %2.</source>
        <translation>这种旧报错只打印整数 GB 并向下取整：请求大小介于 %1 和 %2 之间。</translation>
    </message>
    <message>
        <source>Error code 12 is ENOMEM: the kernel refused the allocation. Besides physical memory, a container memory limit, ulimit -v or strict overcommit settings can cause it.</source>
        <translation>错误码 12 即 ENOMEM：内核拒绝了这次分配。除了物理内存不足，容器内存限制、ulimit -v 或严格的 overcommit 设置也会导致它。</translation>
    </message>
    <message>
        <source>One tensor of %1 is rarely intended. Check its shape: loading a whole dataset into one tensor (load it in batches with a DataLoader instead), an accidental broadcast such as x[:, None] - y[None, :], or a dimension in the wrong place are the usual causes.</source>
        <translation>单个 %1 的张量很少是有意为之。请检查它的形状：常见原因是把整个数据集装进一个张量（请改用 DataLoader 分批加载）、意外的广播（例如 x[:, None] - y[None, :]），或维度放错了位置。</translation>
    </message>
    <message>
        <source>This one request is larger than the whole %1 the process may use: no amount of freeing helps. Make this tensor smaller (batch, sequence length, resolution) or split the computation.</source>
        <translation>这一个请求就比进程可用的全部 %1 还大：释放再多内存也无济于事。请把这个张量变小（批大小、序列长度、分辨率），或把计算拆开。</translation>
    </message>
    <message>
        <source>It needed %1 and only %2 was available: %3 short. A device with at least %4, everything else the same, would have had room for this allocation; the allocations after it may need more.</source>
        <translation>它需要 %1，但只有 %2 可用：缺少 %3。在其他条件不变的情况下，至少 %4 的设备才能容纳这次分配；之后的分配可能还需要更多。</translation>
    </message>
    <message>
        <source>The limit was set by torch.cuda.set_per_process_memory_fraction: %1 allowed, not the whole device.</source>
        <translation>上限由 torch.cuda.set_per_process_memory_fraction 设定：允许使用 %1，而不是整个设备。</translation>
    </message>
    <message>
        <source>PyTorch holds %1 reserved but unallocated, more than the %2 missing, but in pieces too small for one block of %3: fragmentation. PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (PyTorch 2.1 and later; max_split_size_mb before) lets the allocator grow segments instead of leaving holes.</source>
        <translation>PyTorch 保留了 %1 但未分配，比缺少的 %2 还多，但这些空间被切成了小块，放不下一整块 %3：这就是碎片化。设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True（PyTorch 2.1 及以后；更早版本用 max_split_size_mb）可以让分配器扩展段，而不是留下空洞。</translation>
    </message>
    <message>
        <source>Processes listed by id hold %1 on this device (inside a container your own process can appear under another id). nvidia-smi shows who they are.</source>
        <translation>按进程号列出的进程在此设备上占用了 %1（在容器中，你自己的进程可能显示为另一个进程号）。nvidia-smi 可以显示它们是谁。</translation>
    </message>
    <message>
        <source>This process uses %1 outside PyTorch&apos;s allocator: the CUDA context, library workspaces (cuBLAS, cuDNN) and anything else that calls cudaMalloc directly.</source>
        <translation>本进程在 PyTorch 分配器之外使用了 %1：CUDA 上下文、库的工作空间（cuBLAS、cuDNN），以及其他直接调用 cudaMalloc 的代码。</translation>
    </message>
    <message>
        <source>The MPS allocator stopped at its high-watermark limit (max allowed), a share of the unified memory that macOS shares between CPU and GPU.</source>
        <translation>MPS 分配器停在了它的高水位线（最大允许值），这是 macOS 在 CPU 与 GPU 之间共享的统一内存的一部分。</translation>
    </message>
    <message>
        <source>It needed %1 and %2 was left under the limit: %3 short.</source>
        <translation>它需要 %1，而上限之下只剩 %2：缺少 %3。</translation>
    </message>
    <message>
        <source>PYTORCH_MPS_HIGH_WATERMARK_RATIO raises the limit (0.0 removes it) at the risk of the whole system running out of memory; reducing the memory the model needs is safer.</source>
        <translation>PYTORCH_MPS_HIGH_WATERMARK_RATIO 可以提高上限（0.0 表示取消上限），但有让整个系统内存耗尽的风险；减少模型所需的内存更安全。</translation>
    </message>
    <message>
        <source>The CUDA runtime itself failed to allocate, outside PyTorch&apos;s caching allocator: while creating the context, cuBLAS or cuDNN handles and workspaces, or in a library that calls cudaMalloc directly. No numbers are printed; nvidia-smi shows what else uses the device. Kernel errors are reported asynchronously, so the line in the traceback may not be the one that failed (CUDA_LAUNCH_BLOCKING=1 finds it).</source>
        <translation>CUDA 运行时本身在 PyTorch 缓存分配器之外分配失败：可能发生在创建上下文、cuBLAS 或 cuDNN 句柄与工作空间时，或某个直接调用 cudaMalloc 的库中。报错里没有数字；nvidia-smi 可以显示还有谁在使用设备。内核错误是异步报告的，所以回溯中的那一行不一定是出错的地方（设置 CUDA_LAUNCH_BLOCKING=1 可以找到它）。</translation>
    </message>
    <message>
        <source>Paste a PyTorch out-of-memory message (the last lines of the traceback are enough).</source>
        <translation>请粘贴一条 PyTorch 内存不足的报错（回溯的最后几行就够了）。</translation>
    </message>
    <message>
        <source>A DataLoader worker process was killed, usually by the Linux OOM killer: each worker holds its own copy of what the Dataset keeps in memory. Fewer workers (num_workers), a Dataset that reads samples lazily, or more RAM help.</source>
        <translation>一个 DataLoader 工作进程被杀死了，通常是被 Linux 的 OOM killer 杀死：每个工作进程都持有一份 Dataset 保存在内存中的数据。减少工作进程数（num_workers）、让 Dataset 按需读取样本，或增加内存都有帮助。</translation>
    </message>
    <message>
        <source>&quot;Killed&quot; without a Python traceback means the Linux OOM killer ended the process: the whole machine ran out of memory, so PyTorch had no chance to print a message. dmesg shows the kill and the process&apos;s size at that moment. The CPU lessons apply.</source>
        <translation>没有 Python 回溯的“Killed”意味着 Linux 的 OOM killer 结束了进程：整台机器的内存耗尽了，PyTorch 来不及打印报错。dmesg 会显示这次终止以及进程当时的大小。请参考 CPU 相关的课程。</translation>
    </message>
    <message>
        <source>This mentions running out of memory, but not in a form memviz can read numbers from. Paste the whole line that starts with RuntimeError or torch.OutOfMemoryError.</source>
        <translation>这里提到了内存不足，但格式不是 memviz 能读出数字的那种。请粘贴以 RuntimeError 或 torch.OutOfMemoryError 开头的完整一行。</translation>
    </message>
    <message>
        <source>This does not look like a PyTorch out-of-memory message.</source>
        <translation>这看起来不像 PyTorch 的内存不足报错。</translation>
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
        <translation>memviz 能读取以下格式：
• DefaultCPUAllocator: not enough memory: you tried to allocate N bytes.
• DefaultCPUAllocator: can&apos;t allocate memory: you tried to allocate N bytes. Error code 12 (Cannot allocate memory)
• $ Torch: not enough memory: you tried to allocate 22GB. Buy new RAM!
• CUDA out of memory. Tried to allocate X (GPU 0; Y total capacity; Z already allocated; W free; V reserved in total by PyTorch)
• CUDA out of memory. Tried to allocate X. GPU 0 has a total capacity of Y of which W is free. ... Of the allocated memory Z is allocated by PyTorch, and V is reserved by PyTorch but unallocated.
• MPS backend out of memory (MPS allocated: ..., max allowed: ...). Tried to allocate X.
• CUDA error: out of memory</translation>
    </message>
    <message>
        <source>Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True</source>
        <translation>设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True</translation>
    </message>
    <message>
        <source>Lets the caching allocator grow segments instead of leaving gaps; up to the %1 reserved but unallocated becomes usable.</source>
        <translation>让缓存分配器扩展段而不是留下空隙；最多可让 %1 已保留但未分配的空间变得可用。</translation>
    </message>
    <message>
        <source>Load the data in batches with a DataLoader</source>
        <translation>用 DataLoader 分批加载数据</translation>
    </message>
    <message>
        <source>Keep one batch in memory instead of the whole tensor; the tensor-size lesson computes a batch&apos;s size.</source>
        <translation>内存中只保留一个批次而不是整个张量；“张量大小”课程可以计算一个批次的大小。</translation>
    </message>
    <message>
        <source>Tensors of this size:</source>
        <translation>这个大小的张量：</translation>
    </message>
    <message>
        <source>Fixes:</source>
        <translation>解决办法：</translation>
    </message>
    <message>
        <source>Fixes for %1, most saving first:</source>
        <translation>针对 %1 的解决办法，按节省量排序：</translation>
    </message>
    <message>
        <source>saves %1</source>
        <translation>节省 %1</translation>
    </message>
    <message>
        <source>Tensors of this size</source>
        <translation>这个大小的张量</translation>
    </message>
    <message>
        <source>Fixes</source>
        <translation>解决办法</translation>
    </message>
    <message>
        <source>Fixes for %1, most saving first</source>
        <translation>针对 %1 的解决办法，按节省量排序</translation>
    </message>
    <message>
        <source>Open the lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Halve the batch: %1 → %2</source>
        <translation>批大小减半：%1 → %2</translation>
    </message>
    <message>
        <source>Activations, the input and temporaries shrink with the batch; weights and optimizer state do not.</source>
        <translation>激活值、输入和临时张量随批大小缩小；权重和优化器状态不变。</translation>
    </message>
    <message>
        <source>Train in bfloat16</source>
        <translation>用 bfloat16 训练</translation>
    </message>
    <message>
        <source>Weights, gradients, optimizer state and activations take half the bytes; bfloat16 keeps float32&apos;s range.</source>
        <translation>权重、梯度、优化器状态和激活值都只占一半字节；bfloat16 保留了 float32 的数值范围。</translation>
    </message>
    <message>
        <source>Mixed precision (torch.autocast)</source>
        <translation>混合精度（torch.autocast）</translation>
    </message>
    <message>
        <source>Activations of matrix products and convolutions in 16 bits; weights, gradients and optimizer state stay float32.</source>
        <translation>矩阵乘法和卷积的激活值用 16 位；权重、梯度和优化器状态仍为 float32。</translation>
    </message>
    <message>
        <source>Gradient checkpointing with K = %1 ≈ √%2 segments</source>
        <translation>梯度检查点，K = %1 ≈ √%2 段</translation>
    </message>
    <message>
        <source>checkpoint_sequential keeps only each segment&apos;s input and recomputes %1 of %2 layers in the backward pass.</source>
        <translation>checkpoint_sequential 只保留每段的输入，在反向传播中重新计算 %2 层中的 %1 层。</translation>
    </message>
    <message>
        <source>A lighter optimizer: %1 instead of %2</source>
        <translation>更轻的优化器：用 %1 代替 %2</translation>
    </message>
    <message>
        <source>%1 state value(s) per parameter instead of %2.</source>
        <translation>每个参数 %1 个状态值，而不是 %2 个。</translation>
    </message>
    <message>
        <source>If it failed in evaluation: torch.no_grad()</source>
        <translation>如果是在评估时失败：torch.no_grad()</translation>
    </message>
    <message>
        <source>Without grad, no activations are kept for a backward pass.</source>
        <translation>不记录梯度时，不会为反向传播保留任何激活值。</translation>
    </message>
    <message>
        <source>Predicted peak: %1.</source>
        <translation>预测峰值：%1。</translation>
    </message>
    <message>
        <source>Fits in the device&apos;s %1.</source>
        <translation>能放进设备的 %1。</translation>
    </message>
    <message>
        <source>Still %1 over the device&apos;s %2.</source>
        <translation>仍比设备的 %2 多出 %1。</translation>
    </message>
    <message>
        <source>%1, batch %2, %3, %4</source>
        <translation>%1，批大小 %2，%3，%4</translation>
    </message>
    <message>
        <source>AMP</source>
        <translation>AMP</translation>
    </message>
    <message>
        <source>Cost model: peak of %1</source>
        <translation>代价模型：%1 的峰值</translation>
    </message>
    <message>
        <source>For %1 the cost model predicts a peak of %2, which fits the device&apos;s %3: the program that failed needs more than this setup (a larger model, batch or sequence, tensors kept between steps, or other processes on the device). The savings below are for this setup.</source>
        <translation>对于 %1，代价模型预测的峰值为 %2，能放进设备的 %3：失败的程序需要的比这个设置更多（更大的模型、批大小或序列长度，在训练步之间保留的张量，或设备上的其他进程）。下面的节省量是针对这个设置计算的。</translation>
    </message>
    <message>
        <source>The caching allocator asks the driver for whole segments: any tensor between %1 and %2 gets a new %3 segment when no cached block fits. So the tensor that failed was between %1 and %2; the device was already full.</source>
        <translation>缓存分配器向驱动申请整段显存：当没有合适的缓存块时，任何介于 %1 和 %2 之间的张量都会申请一个新的 %3 段。所以失败的张量介于 %1 和 %2 之间；设备此时已经满了。</translation>
    </message>
    <message>
        <source>The caching allocator keeps tensors of up to %1 in %2 segments: the tensor that failed was at most %1; the device was already full.</source>
        <translation>缓存分配器把不超过 %1 的张量放在 %2 的段中：失败的张量最多 %1；设备此时已经满了。</translation>
    </message>
    <message>
        <source>The caching allocator rounds large requests up to a multiple of %3: the tensor itself was between %1 and %2.</source>
        <translation>缓存分配器把大的请求向上取整到 %3 的整数倍：张量本身介于 %1 和 %2 之间。</translation>
    </message>
    <message>
        <source>between %1 and %2, or between %3 and %4</source>
        <translation>介于 %1 和 %2 之间，或介于 %3 和 %4 之间</translation>
    </message>
    <message>
        <source>The caching allocator asks the driver for whole segments: any tensor between %1 and %2 gets a new %3 segment when no cached block fits, and a tensor of %2 or more gets its size rounded up to a multiple of %4. So the tensor that failed was between %1 and %2, or between %5 and %6; the device was already full.</source>
        <translation>缓存分配器向驱动申请整段显存：当没有合适的缓存块时，任何介于 %1 和 %2 之间的张量都会申请一个新的 %3 段，而 %2 及以上的张量会把大小向上取整到 %4 的整数倍。所以失败的张量介于 %1 和 %2 之间，或介于 %5 和 %6 之间；设备此时已经满了。</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>memviz store (*.memviz)</source>
        <translation>memviz 存储文件 (*.memviz)</translation>
    </message>
    <message>
        <source>All supported files (*.memviz %1)</source>
        <translation>所有支持的文件 (*.memviz %1)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Unknown image format for %1 (use .png, .svg or .pdf)</source>
        <translation>%1 的图像格式未知（请使用 .png、.svg 或 .pdf）</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Export Plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>Export Table</source>
        <translation>导出表格</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Export Plot (PNG, SVG, PDF)…</source>
        <translation>导出图表（PNG、SVG、PDF）…</translation>
    </message>
    <message>
        <source>Export Table as CSV…</source>
        <translation>将表格导出为 CSV…</translation>
    </message>
    <message>
        <source>peak %1: %2 at %3</source>
        <translation>峰值 %1：%2，位于 %3</translation>
    </message>
    <message>
        <source>%1 allocated (running sum of Bytes)</source>
        <translation>%1 已分配（Bytes 的累计和）</translation>
    </message>
    <message>
        <source>memory at the peak (%1)</source>
        <translation>峰值时的内存（%1）</translation>
    </message>
    <message>
        <source>Cannot record</source>
        <translation>无法记录</translation>
    </message>
    <message>
        <source>Choose a file to save the recording in.</source>
        <translation>请选择保存记录的文件。</translation>
    </message>
    <message>
        <source>operator: %1</source>
        <translation>算子：%1</translation>
    </message>
    <message>
        <source>RSS</source>
        <translation>RSS</translation>
    </message>
    <message>
        <source>peak RSS (VmHWM)</source>
        <translation>峰值 RSS（VmHWM）</translation>
    </message>
    <message>
        <source>RSS anonymous</source>
        <translation>RSS 匿名页</translation>
    </message>
    <message>
        <source>RSS file-backed</source>
        <translation>RSS 文件映射页</translation>
    </message>
    <message>
        <source>RSS shared memory</source>
        <translation>RSS 共享内存</translation>
    </message>
    <message>
        <source>swapped out</source>
        <translation>已换出</translation>
    </message>
    <message>
        <source>PSS</source>
        <translation>PSS</translation>
    </message>
    <message>
        <source>private</source>
        <translation>私有</translation>
    </message>
    <message>
        <source>processes</source>
        <translation>进程</translation>
    </message>
    <message>
        <source>Compare with which trace?</source>
        <translation>与哪个记录比较？</translation>
    </message>
    <message>
        <source>%1 holds %2 traces; compare with:</source>
        <translation>%1 中有 %2 个记录；与以下记录比较：</translation>
    </message>
    <message>
        <source>Unknown image type &quot;%1&quot; (png or svg)</source>
        <translation>未知的图像类型“%1”（png 或 svg）</translation>
    </message>
    <message>
        <source>Export Flame Graph…</source>
        <translation>导出火焰图…</translation>
    </message>
    <message>
        <source>Export Flame Graph</source>
        <translation>导出火焰图</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>heap consumed (heaptrack)</source>
        <translation>已占用的堆（heaptrack）</translation>
    </message>
    <message>
        <source>allocations per second (heaptrack)</source>
        <translation>每秒分配次数（heaptrack）</translation>
    </message>
    <message>
        <source>peak %1: %2 at %3 (too small for this axis)</source>
        <translation>峰值 %1：%3 时 %2（相对此坐标轴太小）</translation>
    </message>
    <message>
        <source>peak %1: %2</source>
        <translation>峰值 %1：%2</translation>
    </message>
    <message>
        <source>%1: %2 at %3</source>
        <translation>%1：%3 时 %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>memviz::ActiveMemoryView</name>
    <message>
        <source>Every allocation of %1 from its allocation to its free, stacked in the order they were made: when one is freed, those above it drop. </source>
        <translation>%1 的每次分配从分配到释放画成一条带，按分配顺序堆叠：某次分配被释放时，它上面的带随之下落。</translation>
    </message>
    <message>
        <source>Hover over a band to name the allocation; click it for its stack.</source>
        <translation>把鼠标移到一条带上可查看这次分配；单击可查看它的调用栈。</translation>
    </message>
    <message>
        <source>the snapshot</source>
        <translation>这个快照</translation>
    </message>
    <message>
        <source>No allocations in this trace.</source>
        <translation>此跟踪中没有分配。</translation>
    </message>
    <message>
        <source>%L1 allocations as bands, coloured by call site</source>
        <translation>%L1 次分配画成带，按调用位置着色</translation>
    </message>
    <message>
        <source>; %L1 smaller ones (up to %2) summed in grey on top</source>
        <translation>；%L1 次较小的分配（不超过 %2）合并为顶部的灰色带</translation>
    </message>
    <message>
        <source>. Highest point: %1.</source>
        <translation>。最高点：%1。</translation>
    </message>
    <message>
        <source>Allocated (%1)</source>
        <translation>已分配（%1）</translation>
    </message>
    <message>
        <source>0x%1: %2 requested</source>
        <translation>0x%1：请求 %2</translation>
    </message>
    <message>
        <source>allocated before the trace began</source>
        <translation>在跟踪开始之前分配</translation>
    </message>
    <message>
        <source>allocated at %1</source>
        <translation>分配于 %1</translation>
    </message>
    <message>
        <source>freed at %1</source>
        <translation>释放于 %1</translation>
    </message>
    <message>
        <source>alive when the snapshot was taken</source>
        <translation>快照时仍然存活</translation>
    </message>
    <message>
        <source>Stacking the allocations…</source>
        <translation>正在堆叠分配…</translation>
    </message>
    <message>
        <source>Reading the allocations…</source>
        <translation>正在读取分配…</translation>
    </message>
    <message>
        <source>Cannot read the allocations: %1</source>
        <translation>无法读取分配：%1</translation>
    </message>
</context>
<context>
    <name>memviz::AliveAllocationsModel</name>
    <message>
        <source>since before the trace</source>
        <translation>早于记录开始</translation>
    </message>
    <message>
        <source>before the trace</source>
        <translation>记录开始之前</translation>
    </message>
    <message>
        <source>(no stack recorded)</source>
        <translation>（未记录调用栈）</translation>
    </message>
    <message>
        <source>freed at %1</source>
        <translation>释放于 %1</translation>
    </message>
    <message>
        <source>%L1 bytes: the allocator&apos;s block, as the final segments show it</source>
        <translation>%L1 字节：分配器的块大小，取自最终的段信息</translation>
    </message>
    <message>
        <source>about %L1 bytes: the trace records only the requested size; the allocator rounds requests up to multiples of 512 bytes (and may not split a larger block)</source>
        <translation>约 %L1 字节：记录中只有请求的大小；分配器会把请求向上取整到 512 字节的倍数（也可能不拆分更大的块）</translation>
    </message>
    <message>
        <source>%L1 bytes asked for</source>
        <translation>请求了 %L1 字节</translation>
    </message>
    <message>
        <source>Allocated before the trace began (recording started later, or its ring buffer dropped the alloc). It is part of the pre-existing baseline.</source>
        <translation>在记录开始之前分配（记录开始得较晚，或其环形缓冲区丢弃了这次分配）。它属于记录前已有的基线。</translation>
    </message>
    <message>
        <source>Allocated by entry %L1</source>
        <translation>由第 %L1 条记录分配</translation>
    </message>
    <message>
        <source>The allocator&apos;s block size; ≈ marks an estimate from the requested size</source>
        <translation>分配器的块大小；≈ 表示根据请求大小的估计值</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Requested</source>
        <translation>请求大小</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>存活时间</translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation>分配于</translation>
    </message>
    <message>
        <source>Allocated in</source>
        <translation>分配位置</translation>
    </message>
    <message>
        <source>entries</source>
        <translation>条目</translation>
    </message>
</context>
<context>
    <name>memviz::AllocationBands</name>
    <message>
        <source>allocations</source>
        <translation>分配</translation>
    </message>
</context>
<context>
    <name>memviz::AllocationSitesModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation>%L1 字节</translation>
    </message>
    <message>
        <source>Bytes this site held when the heap was at its peak</source>
        <translation>堆达到峰值时该位置持有的字节数</translation>
    </message>
    <message>
        <source>Bytes never freed (heaptrack&apos;s leak suppressions applied)</source>
        <translation>从未释放的字节数（已应用 heaptrack 的泄漏抑制规则）</translation>
    </message>
    <message>
        <source>Calls to allocation functions</source>
        <translation>调用分配函数的次数</translation>
    </message>
    <message>
        <source>Allocations freed right after they were made, with no other allocation between</source>
        <translation>刚分配就被释放、中间没有其他分配的次数</translation>
    </message>
    <message>
        <source>Allocation site</source>
        <translation>分配位置</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>源码位置</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Leaked</source>
        <translation>泄漏</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>分配次数</translation>
    </message>
    <message>
        <source>Temporary</source>
        <translation>临时分配</translation>
    </message>
</context>
<context>
    <name>memviz::AllocationSitesView</name>
    <message>
        <source>Filter allocation sites</source>
        <translation>筛选分配位置</translation>
    </message>
    <message>
        <source>%L1 calls to allocation functions, %L2 temporary; peak heap %3; leaked %4</source>
        <translation>调用分配函数 %L1 次，其中临时分配 %L2 次；堆峰值 %3；泄漏 %4</translation>
    </message>
    <message>
        <source> (%1 more in suppressed leaks)</source>
        <translation>（另有 %1 在被抑制的泄漏中）</translation>
    </message>
    <message>
        <source>; peak RSS %1</source>
        <translation>；峰值 RSS %1</translation>
    </message>
    <message>
        <source>Cannot read the allocation sites: %1</source>
        <translation>无法读取分配位置：%1</translation>
    </message>
    <message>
        <source>Cannot read the backtraces: %1</source>
        <translation>无法读取回溯：%1</translation>
    </message>
    <message>
        <source>Reading the allocation sites…</source>
        <translation>正在读取分配位置…</translation>
    </message>
    <message>
        <source>Reading the backtraces…</source>
        <translation>正在读取回溯…</translation>
    </message>
</context>
<context>
    <name>memviz::AllocationsView</name>
    <message>
        <source>Search: 0x address, or function / file name</source>
        <translation>搜索：0x 地址，或函数名 / 文件名</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>Show the moment allocated memory peaked</source>
        <translation>显示已分配内存达到峰值的时刻</translation>
    </message>
    <message>
        <source>Show the moment before the first trace entry</source>
        <translation>显示第一条记录之前的时刻</translation>
    </message>
    <message>
        <source>Show the moment after the last trace entry (when the snapshot was taken)</source>
        <translation>显示最后一条记录之后的时刻（拍摄快照时）</translation>
    </message>
    <message>
        <source>Alive</source>
        <translation>存活</translation>
    </message>
    <message>
        <source>%L1 allocations alive, %2 requested</source>
        <translation>%L1 个分配存活，请求了 %2</translation>
    </message>
    <message>
        <source>; %L1 of them (%2) were made before the trace began, so their alloc is not in it</source>
        <translation>；其中 %L1 个（%2）在记录开始之前分配，所以记录中没有它们的分配</translation>
    </message>
    <message>
        <source> — %L1 match the search</source>
        <translation> — %L1 个匹配搜索</translation>
    </message>
    <message>
        <source>Select an allocation to see where it was made.</source>
        <translation>选择一个分配，查看它是在哪里分配的。</translation>
    </message>
    <message>
        <source>%1, %2 requested</source>
        <translation>%1，请求了 %2</translation>
    </message>
    <message>
        <source> — allocated before the trace began; this is where it was freed</source>
        <translation> — 在记录开始之前分配；这里是它被释放的位置</translation>
    </message>
    <message>
        <source> — allocated before the trace began (stack from the final segments)</source>
        <translation> — 在记录开始之前分配（调用栈来自最终的段信息）</translation>
    </message>
    <message>
        <source>Reading the allocations…</source>
        <translation>正在读取分配…</translation>
    </message>
    <message>
        <source>Cannot read the allocations: %1</source>
        <translation>无法读取分配：%1</translation>
    </message>
</context>
<context>
    <name>memviz::AllocatorStateView</name>
    <message>
        <source>Click a block to see where it was allocated.</source>
        <translation>点击一个块，查看它是在哪里分配的。</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>allocated (a colour per block)</source>
        <translation>已分配（每块一种颜色）</translation>
    </message>
    <message>
        <source>pending free</source>
        <translation>等待释放</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#666&apos;&gt;Rebuilding the allocator state %1…&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#666&apos;&gt;正在重建分配器状态 %1…&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Reserved&lt;/b&gt; %1 in %L2 segments &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;allocated&lt;/b&gt; %3 in %L4 blocks (%5 requested) &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;pending free&lt;/b&gt; %6 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;free&lt;/b&gt; (reserved &amp;minus; allocated) %7, of which &lt;b&gt;inactive split&lt;/b&gt; %8 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;largest free gap&lt;/b&gt; %9</source>
        <translation>&lt;b&gt;已保留&lt;/b&gt; %1，共 %L2 个段 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;已分配&lt;/b&gt; %3，共 %L4 个块（请求了 %5） &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;等待释放&lt;/b&gt; %6 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;空闲&lt;/b&gt;（已保留 &amp;minus; 已分配）%7，其中&lt;b&gt;未使用的拆分块&lt;/b&gt; %8 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;最大空闲间隙&lt;/b&gt; %9</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;span style=&apos;color:#666&apos;&gt;Blocks the trace brings back show the requested size (the trace does not record the allocator&apos;s rounding); blocks that still exist at the end show their real size.&lt;/span&gt;</source>
        <translation>&lt;br&gt;&lt;span style=&apos;color:#666&apos;&gt;记录中恢复出来的块显示的是请求大小（记录中没有分配器的取整）；到最后仍存在的块显示其真实大小。&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;span style=&apos;color:#a00&apos;&gt;%L1 blocks lie outside every segment (inconsistent snapshot)&lt;/span&gt;</source>
        <translation>&lt;br&gt;&lt;span style=&apos;color:#a00&apos;&gt;有 %L1 个块不在任何段内（快照不一致）&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Block 0x%1, %2 (%3 requested)%4</source>
        <translation>块 0x%1，%2（请求了 %3）%4</translation>
    </message>
    <message>
        <source>, pending free</source>
        <translation>，等待释放</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#666&apos;&gt;Reading the allocations…&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#666&apos;&gt;正在读取分配…&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#a00&apos;&gt;Cannot read the allocations: %1&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#a00&apos;&gt;无法读取分配：%1&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Reserved &amp;minus; requested&lt;/b&gt; (the allocator model replaying the trace): &lt;b&gt;rounding&lt;/b&gt; %1 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;free split blocks&lt;/b&gt; %2 (small pool), %3 (large pool) &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;pending free&lt;/b&gt; %4 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;whole cached segments&lt;/b&gt; %5 in %L6 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;largest free block&lt;/b&gt; %7</source>
        <translation>&lt;br&gt;&lt;b&gt;已保留 &amp;minus; 已请求&lt;/b&gt;（分配器模型重放此记录）：&lt;b&gt;取整&lt;/b&gt; %1 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;空闲的拆分块&lt;/b&gt; %2（小池），%3（大池） &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;等待释放&lt;/b&gt; %4 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;整段缓存&lt;/b&gt; %5，共 %L6 段 &amp;nbsp;&amp;middot;&amp;nbsp; &lt;b&gt;最大空闲块&lt;/b&gt; %7</translation>
    </message>
</context>
<context>
    <name>memviz::AsyncTableView</name>
    <message>
        <source>Filter %1 (Ctrl+F)</source>
        <translation>筛选%1（Ctrl+F）</translation>
    </message>
    <message>
        <source>No trace open</source>
        <translation>没有打开的记录</translation>
    </message>
    <message>
        <source>%1 in %2 – %3</source>
        <translation>%1，%2 – %3</translation>
    </message>
    <message>
        <source>%1, whole trace</source>
        <translation>%1，整个记录</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 – %2 of %3 rows shown (filter: %4)</source>
        <translation>%1 – 显示 %2 / %3 行（筛选：%4）</translation>
    </message>
    <message>
        <source>%1 – none</source>
        <translation>%1 – 无</translation>
    </message>
    <message>
        <source>%1 – none: %2</source>
        <translation>%1 – 无：%2</translation>
    </message>
</context>
<context>
    <name>memviz::BatchSizeLesson</name>
    <message>
        <source>Sweep up to batch:</source>
        <translation>批大小扫描上限：</translation>
    </message>
    <message>
        <source>Memory limit:</source>
        <translation>内存上限：</translation>
    </message>
    <message>
        <source>none (not even batch 1)</source>
        <translation>无（连批大小 1 都放不下）</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>grows with the batch</source>
        <translation>随批大小增长</translation>
    </message>
    <message>
        <source>per sample</source>
        <translation>每个样本</translation>
    </message>
    <message>
        <source>small batch (%1)</source>
        <translation>小批量（%1）</translation>
    </message>
    <message>
        <source>large batch (%1)</source>
        <translation>大批量（%1）</translation>
    </message>
    <message>
        <source>memory at the peak</source>
        <translation>峰值时的内存</translation>
    </message>
    <message>
        <source>speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>slower: many small steps keep the hardware half idle</source>
        <translation>较慢：很多小步让硬件一半时间空闲</translation>
    </message>
    <message>
        <source>faster per sample, until the device is saturated</source>
        <translation>每个样本更快，直到设备算力饱和</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>noisier estimates (can help generalisation)</source>
        <translation>估计更嘈杂（可能有助于泛化）</translation>
    </message>
    <message>
        <source>smoother estimates (often with a larger learning rate)</source>
        <translation>估计更平滑（通常配合更大的学习率）</translation>
    </message>
    <message>
        <source>batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>memory (%1)</source>
        <translation>内存（%1）</translation>
    </message>
    <message>
        <source>limit %1 GiB: largest batch %2</source>
        <translation>上限 %1 GiB：最大批大小 %2</translation>
    </message>
    <message>
        <source>Batch size: what grows and what does not</source>
        <translation>批大小：什么会增长，什么不会</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>The weights and the optimizer&apos;s state stay in memory for the whole training step, whatever the batch. The gradients do not: &lt;code&gt;zero_grad(set_to_none=True)&lt;/code&gt; frees them, and the backward pass makes them again one layer at a time, from the last layer to the first. The activations saved for the backward pass, the input batch and the temporaries grow with every sample. The peak is a moment, not a sum: with a larger batch it comes earlier in the backward pass, when fewer gradients exist yet, so the gradients counted at the peak shrink while their size stays the same. Doubling the batch does not double the memory, but past a few samples the activations dominate. All numbers come from the cost model simulating the step.</source>
        <translation>无论批大小是多少，权重和优化器状态在整个训练步中都留在内存里。梯度则不然：&lt;code&gt;zero_grad(set_to_none=True)&lt;/code&gt; 会释放它们，反向传播再从最后一层到第一层逐层重新生成。为反向传播保存的激活值、输入批次和临时张量随每个样本增长。峰值是一个时刻，而不是一个总和：批越大，峰值在反向传播中出现得越早，那时已生成的梯度越少，所以峰值时计入的梯度会变少，而梯度本身的大小不变。批大小翻倍并不会让内存翻倍，但超过几个样本之后，激活值就占了大头。所有数字都来自代价模型对训练步的模拟。</translation>
    </message>
    <message>
        <source>%1, batch %2: peak &lt;b&gt;%3&lt;/b&gt; in the %4 phase, of which %5 grow with the batch (activations, input, temporaries), %6 are the weights and the optimizer state, and %7 are gradients (%8 once all exist). From batch 1 to %9 the peak goes from %10 to %11. The largest batch that fits in %12 GiB: &lt;b&gt;%13&lt;/b&gt;.</source>
        <translation>%1，批大小 %2：峰值 &lt;b&gt;%3&lt;/b&gt;，出现在%4阶段，其中 %5 随批大小增长（激活值、输入、临时张量），%6 是权重和优化器状态，%7 是梯度（全部生成后为 %8）。批大小从 1 到 %9，峰值从 %10 增长到 %11。能放进 %12 GiB 的最大批大小：&lt;b&gt;%13&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>weights + optimizer state</source>
        <translation>权重 + 优化器状态</translation>
    </message>
    <message>
        <source>gradients at the peak</source>
        <translation>峰值时的梯度</translation>
    </message>
    <message>
        <source>The gradients alive at the moment of the peak: all of them only when the peak comes at the end of the backward pass or in the optimizer step.</source>
        <translation>峰值那一刻存在的梯度：只有当峰值出现在反向传播末尾或优化器步骤中时，才是全部梯度。</translation>
    </message>
</context>
<context>
    <name>memviz::BreakdownChart</name>
    <message>
        <source>recorded, no category</source>
        <translation>已记录，无类别</translation>
    </message>
    <message>
        <source>limit %1</source>
        <translation>上限 %1</translation>
    </message>
    <message>
        <source>At the peak (%1)</source>
        <translation>峰值时（%1）</translation>
    </message>
</context>
<context>
    <name>memviz::CallSpanOverlay</name>
    <message>
        <source>calls of %1: %2 in view%3</source>
        <translation>%1 的调用：视图中 %2 个%3</translation>
    </message>
    <message>
        <source> (first %1 shown)</source>
        <translation>（显示前 %1 个）</translation>
    </message>
    <message>
        <source>calls of %1: cannot read them (%2)</source>
        <translation>%1 的调用：无法读取（%2）</translation>
    </message>
    <message>
        <source>calls of %1: looking them up…</source>
        <translation>%1 的调用：正在查找…</translation>
    </message>
</context>
<context>
    <name>memviz::CheckpointLesson</name>
    <message>
        <source>&lt;code&gt;torch.utils.checkpoint.checkpoint_sequential(model, K, x)&lt;/code&gt; cuts the model&apos;s n layers into K segments of n // K layers. All but the last segment run without keeping their activations, only their input; in the backward pass each is run again to rebuild them. More segments keep fewer activations at once but more segment inputs, and run more of the forward pass twice: the memory is smallest near K = √n. K = 1 is no checkpointing.</source>
        <translation>&lt;code&gt;torch.utils.checkpoint.checkpoint_sequential(model, K, x)&lt;/code&gt; 把模型的 n 层切成 K 段，每段 n // K 层。除最后一段外，各段运行时不保留激活值，只保留输入；在反向传播中每段都会重新运行一次来重建激活值。段数越多，同一时刻保留的激活值越少，但要保留的段输入越多，前向传播被重复计算的部分也越多：内存在 K = √n 附近最小。K = 1 即不使用检查点。</translation>
    </message>
    <message>
        <source>%1 has n = %2 layers at the top level. Without checkpointing the step peaks at &lt;b&gt;%3&lt;/b&gt;; with K = √n ≈ %4 segments at &lt;b&gt;%5&lt;/b&gt;, recomputing %6 of %2 layers (%7%). The lowest peak is at K = %8: &lt;b&gt;%9&lt;/b&gt;.</source>
        <translation>%1 的顶层有 n = %2 层。不使用检查点时，训练步的峰值为 &lt;b&gt;%3&lt;/b&gt;；使用 K = √n ≈ %4 段时为 &lt;b&gt;%5&lt;/b&gt;，需要重新计算 %2 层中的 %6 层（%7%）。最低峰值出现在 K = %8：&lt;b&gt;%9&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>segments K</source>
        <translation>段数 K</translation>
    </message>
    <message>
        <source>layers per segment</source>
        <translation>每段层数</translation>
    </message>
    <message>
        <source>recomputed layers</source>
        <translation>重新计算的层数</translation>
    </message>
    <message>
        <source>recomputed</source>
        <translation>重新计算</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>activations at the peak</source>
        <translation>峰值时的激活值</translation>
    </message>
    <message>
        <source>%1 × %2 + %3</source>
        <translation>%1 × %2 + %3</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>forward recomputed (%)</source>
        <translation>前向重新计算（%）</translation>
    </message>
    <message>
        <source>√n ≈ %1</source>
        <translation>√n ≈ %1</translation>
    </message>
    <message>
        <source>lowest: K = %1</source>
        <translation>最低：K = %1</translation>
    </message>
    <message>
        <source>peak (%1)</source>
        <translation>峰值（%1）</translation>
    </message>
    <message>
        <source>recomputed (%)</source>
        <translation>重新计算（%）</translation>
    </message>
    <message>
        <source>Gradient checkpointing: memory for recomputation</source>
        <translation>梯度检查点：用重新计算换内存</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
</context>
<context>
    <name>memviz::ComparePlot</name>
    <message>
        <source>Drag to pan, Shift+drag to move B in time, wheel to zoom, Home to reset the zoom</source>
        <translation>拖动：平移；Shift+拖动：在时间上移动 B；滚轮：缩放；Home：重置缩放</translation>
    </message>
    <message>
        <source>difference B − A</source>
        <translation>差值 B − A</translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation>A：%1</translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation>B：%1</translation>
    </message>
    <message>
        <source>A peak</source>
        <translation>A 峰值</translation>
    </message>
    <message>
        <source>B peak</source>
        <translation>B 峰值</translation>
    </message>
    <message>
        <source>Memory (%1)</source>
        <translation>内存（%1）</translation>
    </message>
</context>
<context>
    <name>memviz::CompareRowsModel</name>
    <message>
        <source>Allocation site</source>
        <translation>分配位置</translation>
    </message>
    <message>
        <source>Calls A</source>
        <translation>调用次数 A</translation>
    </message>
    <message>
        <source>Calls B</source>
        <translation>调用次数 B</translation>
    </message>
    <message>
        <source>Δ calls</source>
        <translation>Δ 调用次数</translation>
    </message>
    <message>
        <source>Δ temporary</source>
        <translation>Δ 临时分配</translation>
    </message>
    <message>
        <source>Δ peak</source>
        <translation>Δ 峰值</translation>
    </message>
    <message>
        <source>Δ leaked</source>
        <translation>Δ 泄漏</translation>
    </message>
    <message>
        <source>Memory category</source>
        <translation>内存类别</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>At peak A</source>
        <translation>峰值 A 时</translation>
    </message>
    <message>
        <source>At peak B</source>
        <translation>峰值 B 时</translation>
    </message>
    <message>
        <source>Δ at peak</source>
        <translation>Δ 峰值时</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Allocated A</source>
        <translation>已分配 A</translation>
    </message>
    <message>
        <source>Allocated B</source>
        <translation>已分配 B</translation>
    </message>
    <message>
        <source>Δ allocated</source>
        <translation>Δ 已分配</translation>
    </message>
    <message>
        <source>Allocs A</source>
        <translation>分配次数 A</translation>
    </message>
    <message>
        <source>Allocs B</source>
        <translation>分配次数 B</translation>
    </message>
    <message>
        <source>Δ allocs</source>
        <translation>Δ 分配次数</translation>
    </message>
    <message>
        <source>Self mem A</source>
        <translation>自身内存 A</translation>
    </message>
    <message>
        <source>Self mem B</source>
        <translation>自身内存 B</translation>
    </message>
    <message>
        <source>Δ self mem</source>
        <translation>Δ 自身内存</translation>
    </message>
    <message>
        <source>Δ mem</source>
        <translation>Δ 内存</translation>
    </message>
    <message>
        <source>Call site</source>
        <translation>调用位置</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>段</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>In</source>
        <translation>出现在</translation>
    </message>
    <message>
        <source>Size A</source>
        <translation>大小 A</translation>
    </message>
    <message>
        <source>Size B</source>
        <translation>大小 B</translation>
    </message>
    <message>
        <source>State A</source>
        <translation>状态 A</translation>
    </message>
    <message>
        <source>State B</source>
        <translation>状态 B</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>both</source>
        <translation>两者都有</translation>
    </message>
    <message>
        <source>A only</source>
        <translation>仅 A</translation>
    </message>
    <message>
        <source>B only</source>
        <translation>仅 B</translation>
    </message>
    <message>
        <source>(no stack)</source>
        <translation>（无调用栈）</translation>
    </message>
</context>
<context>
    <name>memviz::CompareWindow</name>
    <message>
        <source>Compare — memviz</source>
        <translation>比较 — memviz</translation>
    </message>
    <message>
        <source>Line up the first common step (else the starts)</source>
        <translation>对齐第一个共同的训练步（否则对齐起点）</translation>
    </message>
    <message>
        <source>Line up the starts</source>
        <translation>对齐起点</translation>
    </message>
    <message>
        <source>Line up the peaks</source>
        <translation>对齐峰值</translation>
    </message>
    <message>
        <source>Line up at a marker…</source>
        <translation>在标记处对齐…</translation>
    </message>
    <message>
        <source>How trace B is shifted in time against trace A</source>
        <translation>记录 B 相对记录 A 在时间上的偏移方式</translation>
    </message>
    <message>
        <source>Filter rows (Ctrl+F)</source>
        <translation>筛选行（Ctrl+F）</translation>
    </message>
    <message>
        <source>Which differences the table lists</source>
        <translation>表格列出哪些差异</translation>
    </message>
    <message>
        <source>Choose a row to draw its curve in both traces</source>
        <translation>选择一行，在两个记录中画出它的曲线</translation>
    </message>
    <message>
        <source>Cannot read the snapshots&apos; blocks: %1</source>
        <translation>无法读取快照中的块：%1</translation>
    </message>
    <message>
        <source>Cannot read the row&apos;s curves: %1</source>
        <translation>无法读取该行的曲线：%1</translation>
    </message>
    <message>
        <source>Cannot compare: %1</source>
        <translation>无法比较：%1</translation>
    </message>
    <message>
        <source>Importing B (%1): %2 — %3%</source>
        <translation>正在导入 B（%1）：%2 — %3%</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Line up at a marker</source>
        <translation>在标记处对齐</translation>
    </message>
    <message>
        <source>Marker name (a record_function label, ProfilerStep#N, a probe marker):</source>
        <translation>标记名称（record_function 标签、ProfilerStep#N 或探针标记）：</translation>
    </message>
    <message>
        <source>Looking for the marker “%1”…</source>
        <translation>正在查找标记“%1”…</translation>
    </message>
    <message>
        <source>Comparing %1 with %2…</source>
        <translation>正在比较 %1 与 %2…</translation>
    </message>
    <message>
        <source>; cannot line up at “%1”: %2, lined up at the starts</source>
        <translation>；无法在“%1”处对齐：%2，已改为对齐起点</translation>
    </message>
    <message>
        <source>; lined up at step %1</source>
        <translation>；已在训练步 %1 处对齐</translation>
    </message>
    <message>
        <source>; lined up at marker “%1”</source>
        <translation>；已在标记“%1”处对齐</translation>
    </message>
    <message>
        <source>; no step in both, lined up at the starts</source>
        <translation>；没有两者共有的训练步，已对齐起点</translation>
    </message>
    <message>
        <source>; B shifted by %1 (%2 of it by Shift+drag)</source>
        <translation>；B 偏移了 %1（其中 %2 来自 Shift+拖动）</translation>
    </message>
    <message>
        <source>; B shifted by %1</source>
        <translation>；B 偏移了 %1</translation>
    </message>
    <message>
        <source>; dotted: %1 in each</source>
        <translation>；虚线：%1（两个记录中各一条）</translation>
    </message>
    <message>
        <source>A: %1 (%2)   B: %3 (%4)   differences are B − A%5%6%7</source>
        <translation>A：%1（%2）   B：%3（%4）   差值为 B − A%5%6%7</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Peak A</source>
        <translation>峰值 A</translation>
    </message>
    <message>
        <source>Peak B</source>
        <translation>峰值 B</translation>
    </message>
    <message>
        <source>Δ peak</source>
        <translation>Δ 峰值</translation>
    </message>
    <message>
        <source>Final A</source>
        <translation>最终 A</translation>
    </message>
    <message>
        <source>Final B</source>
        <translation>最终 B</translation>
    </message>
    <message>
        <source>Δ final</source>
        <translation>Δ 最终</translation>
    </message>
    <message>
        <source>Allocation sites</source>
        <translation>分配位置</translation>
    </message>
    <message>
        <source>Memory categories at each peak</source>
        <translation>各峰值时的内存类别</translation>
    </message>
    <message>
        <source>Operators: allocated over the trace</source>
        <translation>算子：整个记录中的分配量</translation>
    </message>
    <message>
        <source>Operators as key_averages counts them</source>
        <translation>算子（按 key_averages 的统计方式）</translation>
    </message>
    <message>
        <source>Alive at each peak, by call site</source>
        <translation>各峰值时存活的内存，按调用位置</translation>
    </message>
    <message>
        <source>Blocks only in A, only in B, or changed</source>
        <translation>仅在 A 中、仅在 B 中或有变化的块</translation>
    </message>
    <message>
        <source>Segments only in A, only in B, or changed</source>
        <translation>仅在 A 中、仅在 B 中或有变化的段</translation>
    </message>
    <message>
        <source>These rows have no curve over time to draw (choose operators, categories or call sites)</source>
        <translation>这些行没有随时间变化的曲线可画（请选择算子、类别或调用位置）</translation>
    </message>
    <message>
        <source>(no stack)</source>
        <translation>（无调用栈）</translation>
    </message>
</context>
<context>
    <name>memviz::CostModelLabels</name>
    <message>
        <source>3x32x32 -&gt; 2048 -&gt; 2048 -&gt; 512 -&gt; 10 (bench/costmodel/specs/mlp.json), 11.5 M parameters</source>
        <translation>3x32x32 -&gt; 2048 -&gt; 2048 -&gt; 512 -&gt; 10（bench/costmodel/specs/mlp.json），1150 万个参数</translation>
    </message>
    <message>
        <source>50x50x3, conv 32/64 3x3, 2x2 pools, FC 500, 10 classes</source>
        <translation>50x50x3，卷积 32/64 3x3，2x2 池化，全连接 500，10 个类别</translation>
    </message>
    <message>
        <source>torchvision resnet18, 3x224x224, 1000 classes</source>
        <translation>torchvision resnet18，3x224x224，1000 个类别</translation>
    </message>
    <message>
        <source>torchvision resnet50 (v1.5), 3x224x224, 1000 classes</source>
        <translation>torchvision resnet50（v1.5），3x224x224，1000 个类别</translation>
    </message>
    <message>
        <source>torchvision vgg16, 3x224x224, 1000 classes</source>
        <translation>torchvision vgg16，3x224x224，1000 个类别</translation>
    </message>
    <message>
        <source>torchvision vit_b_16, 3x224x224 (196 patches + class token), 1000 classes</source>
        <translation>torchvision vit_b_16，3x224x224（196 个图块 + 类别 token），1000 个类别</translation>
    </message>
    <message>
        <source>BERT-base (uncased) for 2-class sequence classification, 512 tokens</source>
        <translation>BERT-base（uncased），二分类序列分类，512 个 token</translation>
    </message>
    <message>
        <source>GPT-2 (124 M, tied lm_head), 1024 tokens, next-token loss</source>
        <translation>GPT-2（1.24 亿参数，lm_head 权重共享），1024 个 token，下一个 token 预测损失</translation>
    </message>
    <message>
        <source>GPT-2 medium (355 M, tied lm_head), 1024 tokens</source>
        <translation>GPT-2 medium（3.55 亿参数，lm_head 权重共享），1024 个 token</translation>
    </message>
    <message>
        <source>Llama-2-7B (eager attention), 4096 tokens, next-token loss</source>
        <translation>Llama-2-7B（eager 注意力），4096 个 token，下一个 token 预测损失</translation>
    </message>
    <message>
        <source>CNN for 3x4096x4096 medical images (1000 of them = batch 1000)</source>
        <translation>用于 3x4096x4096 医学图像的 CNN（1000 张图像 = 批大小 1000）</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>input batch</source>
        <translation>输入批次</translation>
    </message>
    <message>
        <source>temporaries</source>
        <translation>临时张量</translation>
    </message>
    <message>
        <source>allocator overhead</source>
        <translation>分配器开销</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <source>Adagrad</source>
        <translation>Adagrad</translation>
    </message>
    <message>
        <source>RMSprop</source>
        <translation>RMSprop</translation>
    </message>
    <message>
        <source>LBFGS</source>
        <translation>LBFGS</translation>
    </message>
    <message>
        <source>halve the batch size</source>
        <translation>批大小减半</translation>
    </message>
    <message>
        <source>parameters and activations in bf16</source>
        <translation>参数和激活值使用 bf16</translation>
    </message>
    <message>
        <source>mixed precision (autocast)</source>
        <translation>混合精度（autocast）</translation>
    </message>
    <message>
        <source>plain SGD instead (no optimizer state)</source>
        <translation>改用普通 SGD（没有优化器状态）</translation>
    </message>
    <message>
        <source>checkpoint_sequential with K = sqrt(layers) segments</source>
        <translation>checkpoint_sequential，K = sqrt(层数) 段</translation>
    </message>
    <message>
        <source>inference only (torch.no_grad)</source>
        <translation>仅推理（torch.no_grad）</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>8-bit Adam (bitsandbytes)</source>
        <translation>8 位 Adam（bitsandbytes）</translation>
    </message>
    <message>
        <source>Adafactor</source>
        <translation>Adafactor</translation>
    </message>
</context>
<context>
    <name>memviz::DTypeLesson</name>
    <message>
        <source>Every tensor&apos;s bytes are its elements times the element size, so moving from float32 (%1 bytes) to float16 or bfloat16 (%2 bytes) halves the weights, gradients, optimizer state and activations. The price is precision: float16 keeps %3 significant bits and overflows above %4; bfloat16 keeps float32&apos;s range with only %5 bits. Mixed precision (AMP) keeps float32 weights and computes in 16 bits. int8 quantization is for inference. The precision columns are computed from each format&apos;s bits; the peaks come from the cost model.</source>
        <translation>每个张量的字节数等于元素个数乘以元素大小，所以从 float32（%1 字节）换成 float16 或 bfloat16（%2 字节）会让权重、梯度、优化器状态和激活值都减半。代价是精度：float16 只保留 %3 位有效二进制位，超过 %4 就会溢出；bfloat16 保留了 float32 的数值范围，但只有 %5 位。混合精度（AMP）保留 float32 权重，用 16 位计算。int8 量化用于推理。精度各列由各格式的位数计算得出；峰值来自代价模型。</translation>
    </message>
    <message>
        <source>%1, batch %2: training in float32 peaks at &lt;b&gt;%3&lt;/b&gt;, in bfloat16 at &lt;b&gt;%4&lt;/b&gt; (%5% of it), with AMP at &lt;b&gt;%6&lt;/b&gt;. Inference: %7 in float32, %8 with int8 weights.</source>
        <translation>%1，批大小 %2：用 float32 训练的峰值为 &lt;b&gt;%3&lt;/b&gt;，用 bfloat16 为 &lt;b&gt;%4&lt;/b&gt;（前者的 %5%），用 AMP 为 &lt;b&gt;%6&lt;/b&gt;。推理：float32 为 %7，int8 权重为 %8。</translation>
    </message>
    <message>
        <source>type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>epsilon</source>
        <translation>机器精度</translation>
    </message>
    <message>
        <source>largest</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>decimal digits</source>
        <translation>十进制有效位</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>training peak</source>
        <translation>训练峰值</translation>
    </message>
    <message>
        <source>inference peak</source>
        <translation>推理峰值</translation>
    </message>
    <message>
        <source>AMP (fp32 weights)</source>
        <translation>AMP（fp32 权重）</translation>
    </message>
    <message>
        <source>2 (weights 4)</source>
        <translation>2（权重 4）</translation>
    </message>
    <message>
        <source>inference only</source>
        <translation>仅推理</translation>
    </message>
    <message>
        <source>training step</source>
        <translation>训练步</translation>
    </message>
    <message>
        <source>inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>peak (%1)</source>
        <translation>峰值（%1）</translation>
    </message>
    <message>
        <source>Element types: fp32, fp16, bf16, int8</source>
        <translation>元素类型：fp32、fp16、bf16、int8</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
</context>
<context>
    <name>memviz::DeviceChooser</name>
    <message>
        <source>The device whose allocations and allocator state the tabs show</source>
        <translation>各标签页显示其分配与分配器状态的设备</translation>
    </message>
</context>
<context>
    <name>memviz::EmptyPage</name>
    <message>
        <source>&lt;h2&gt;No trace open&lt;/h2&gt;&lt;p&gt;Open a trace or a memviz store, or drop a file anywhere on this window: a PyTorch profiler trace, a CUDA memory snapshot, a memory-timeline export, heaptrack, Valgrind massif, or an allocation log.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;没有打开的记录&lt;/h2&gt;&lt;p&gt;打开一个记录或 memviz 存储，或把文件拖到本窗口任意位置：PyTorch profiler 记录、CUDA 显存快照、内存时间线导出、heaptrack、Valgrind massif 或分配日志。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Open a File…</source>
        <translation>打开文件…</translation>
    </message>
    <message>
        <source>A trace or a .memviz store (Ctrl+O)</source>
        <translation>记录或 .memviz 存储（Ctrl+O）</translation>
    </message>
    <message>
        <source>Open the Sample</source>
        <translation>打开示例</translation>
    </message>
    <message>
        <source>A small training step, bundled with memviz</source>
        <translation>memviz 自带的一个小训练步</translation>
    </message>
    <message>
        <source>Learn</source>
        <translation>学习</translation>
    </message>
    <message>
        <source>Lessons on tensor sizes, batch size, optimizers, checkpointing; the OOM decoder (Ctrl+L)</source>
        <translation>关于张量大小、批大小、优化器、检查点的课程；OOM 报错解读（Ctrl+L）</translation>
    </message>
    <message>
        <source>Recent files</source>
        <translation>最近的文件</translation>
    </message>
    <message>
        <source>Record</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>None yet.</source>
        <translation>暂无。</translation>
    </message>
</context>
<context>
    <name>memviz::FitPlanBox</name>
    <message>
        <source>Will it fit on GPUs (Hugging Face config)</source>
        <translation>放得进 GPU 吗（Hugging Face 配置）</translation>
    </message>
    <message>
        <source>Open config.json…</source>
        <translation>打开 config.json…</translation>
    </message>
    <message>
        <source>no config</source>
        <translation>未打开配置</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>×</source>
        <translation>×</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Gradient accumulation: micro-batches per optimizer step</source>
        <translation>梯度累积：每个优化器步的微批次数</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批次</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>off (full fine-tune)</source>
        <translation>关闭（全量微调）</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>GPUs, sharing</source>
        <translation>GPU 数量、切分方式</translation>
    </message>
    <message>
        <source>Open a Hugging Face config.json</source>
        <translation>打开 Hugging Face config.json</translation>
    </message>
    <message>
        <source>Model configs (*.json);;All files (*)</source>
        <translation>模型配置 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1: %2 parameters</source>
        <translation>%1：%2 个参数</translation>
    </message>
    <message>
        <source>Open a config.json to plan a language model on GPUs.</source>
        <translation>打开一个 config.json，为语言模型规划 GPU。</translation>
    </message>
    <message>
        <source>Computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <source>Peak per GPU %1 (%2 phase): </source>
        <translation>每个 GPU 的峰值 %1（%2 阶段）：</translation>
    </message>
    <message>
        <source>fits in %1 (%2 to spare).</source>
        <translation>放得进 %1（还剩 %2）。</translation>
    </message>
    <message>
        <source>does not fit in %1: over by %2.</source>
        <translation>放不进 %1：超出 %2。</translation>
    </message>
    <message>
        <source>Largest micro-batch that fits: %1.</source>
        <translation>放得进的最大微批次：%1。</translation>
    </message>
    <message>
        <source>Not even micro-batch 1 fits.</source>
        <translation>连微批次 1 都放不进。</translation>
    </message>
    <message>
        <source>Longest sequence at micro-batch %1: %2 tokens.</source>
        <translation>微批次 %1 时最长的序列：%2 个词元。</translation>
    </message>
    <message>
        <source>Per GPU: %1</source>
        <translation>每个 GPU：%1</translation>
    </message>
    <message>
        <source>%1. %2 → %3%4</source>
        <translation>%1. %2 → %3%4</translation>
    </message>
    <message>
        <source> ✓ fits</source>
        <translation> ✓ 放得进</translation>
    </message>
    <message>
        <source>%1. %2 → %3 (%4; %5)</source>
        <translation>%1. %2 → %3（%4；%5）</translation>
    </message>
    <message>
        <source>fits</source>
        <translation>放得进</translation>
    </message>
    <message>
        <source>not enough alone</source>
        <translation>单独不够</translation>
    </message>
    <message>
        <source>Changes that make it fit, cheapest first (hover for details):
%1</source>
        <translation>能让它放得进的改动，代价小的在前（悬停查看详情）：
%1</translation>
    </message>
    <message>
        <source>Family: %1, read as a generic decoder (no table knows it).</source>
        <translation>模型族：%1，按通用解码器读取（没有表认识它）。</translation>
    </message>
    <message>
        <source>Family: %1 (its model_type table).</source>
        <translation>模型族：%1（按其 model_type 的表）。</translation>
    </message>
    <message>
        <source>Dtype: the config names no torch_dtype; this plan trains in the dtype chosen below.</source>
        <translation>数据类型：配置中没有 torch_dtype；此方案按下面选择的数据类型训练。</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注意：%1</translation>
    </message>
    <message>
        <source>Training step</source>
        <translation>训练一步</translation>
    </message>
    <message>
        <source>Inference (KV cache)</source>
        <translation>推理（KV 缓存）</translation>
    </message>
    <message>
        <source>Inference: the context is what the KV cache holds (the prompt and one generated token, paged in blocks of %1 tokens), the micro-batch the sequences served at once, the GPUs split the model by tensor parallelism, and the dtype follows the checkpoint&apos;s torch_dtype</source>
        <translation>推理：上下文即 KV 缓存所存内容（提示词加一个生成的 token，按 %1 个 token 一块分页），微批次为同时服务的序列数，多块 GPU 以张量并行切分模型，dtype 跟随检查点的 torch_dtype</translation>
    </message>
    <message>
        <source>Job</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Dtype: the checkpoint is %1 (torch_dtype): inference loads it so (the dtype box follows it when the job is inference); training uses the dtype chosen below (fp32 unless changed).</source>
        <translation>Dtype：检查点为 %1（torch_dtype）：推理按此加载（任务为推理时 dtype 框随之改变）；训练使用下方所选的 dtype（未更改时为 fp32）。</translation>
    </message>
    <message>
        <source>Context (tokens)</source>
        <translation>上下文（token 数）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source> layers</source>
        <translation> 层</translation>
    </message>
    <message>
        <source>Inference on one GPU: transformer layers kept on the CPU, as accelerate&apos;s device_map=&quot;auto&quot; with max_memory does; each forward copies them to the GPU one at a time</source>
        <translation>单 GPU 推理：保留在 CPU 上的 transformer 层，与 accelerate 的 device_map=&quot;auto&quot; 加 max_memory 的做法相同；每次前向逐层把它们复制到 GPU</translation>
    </message>
    <message>
        <source>CPU offload</source>
        <translation>CPU 卸载</translation>
    </message>
    <message>
        <source>CPU offload: %1 layers on the CPU, %2 of weights copied to the GPU per forward (each generated token).</source>
        <translation>CPU 卸载：%1 层在 CPU 上，每次前向（每生成一个词元）向 GPU 复制 %2 的权重。</translation>
    </message>
</context>
<context>
    <name>memviz::FlameGraph</name>
    <message>
        <source>in %1</source>
        <translation>位于 %1</translation>
    </message>
    <message>
        <source>All stacks</source>
        <translation>所有调用栈</translation>
    </message>
    <message>
        <source>Inclusive: %1 (%2%)</source>
        <translation>包含子调用：%1（%2%）</translation>
    </message>
    <message>
        <source>Self: %1 (%2%)</source>
        <translation>自身：%1（%2%）</translation>
    </message>
    <message>
        <source>all (%1)</source>
        <translation>全部（%1）</translation>
    </message>
</context>
<context>
    <name>memviz::FlameTab</name>
    <message>
        <source>Flam&amp;e</source>
        <translation>火焰图(&amp;E)</translation>
    </message>
</context>
<context>
    <name>memviz::FlameView</name>
    <message>
        <source>Group by:</source>
        <translation>分组依据：</translation>
    </message>
    <message>
        <source>Fold plumbing</source>
        <translation>折叠内部帧</translation>
    </message>
    <message>
        <source>Flame</source>
        <translation>火焰图</translation>
    </message>
    <message>
        <source>Hide Python internals, PyTorch dispatch and autograd plumbing, allocation wrappers and the C runtime&apos;s startup frames (presets: %1)</source>
        <translation>隐藏 Python 内部帧、PyTorch 分派与 autograd 内部机制、分配包装函数以及 C 运行时的启动帧（预设：%1）</translation>
    </message>
    <message>
        <source>Root at the bottom (a flame) instead of at the top (an icicle)</source>
        <translation>根在底部（火焰图），而不是在顶部（冰柱图）</translation>
    </message>
    <message>
        <source>Search frames…</source>
        <translation>搜索帧…</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>返回</translation>
    </message>
    <message>
        <source>Zoom out one step (Escape)</source>
        <translation>缩小一级（Escape）</translation>
    </message>
    <message>
        <source>What the top level of the graph is: the stacks themselves, or a key recorded beside them (a CUDA snapshot&apos;s compile context, user metadata or forward-pass stack)</source>
        <translation>图的顶层是什么：调用栈本身，或与调用栈一同记录的某个键（CUDA 快照的编译上下文、用户元数据或前向传播调用栈）</translation>
    </message>
    <message>
        <source>Top-down</source>
        <translation>自顶向下</translation>
    </message>
    <message>
        <source>Bottom-up</source>
        <translation>自底向上</translation>
    </message>
    <message>
        <source>Metric:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop loading the call stacks</source>
        <translation>停止加载调用栈</translation>
    </message>
    <message>
        <source>Loading the call stacks was cancelled. Choose a metric or toggle folding to load them again.</source>
        <translation>已取消加载调用栈。选择一个指标或切换折叠即可重新加载。</translation>
    </message>
    <message>
        <source>Loading cancelled; still showing the previous tree. </source>
        <translation>已取消加载；仍显示之前的树。</translation>
    </message>
    <message>
        <source>Loading call stacks…</source>
        <translation>正在加载调用栈…</translation>
    </message>
    <message>
        <source>Loading call stacks: reading the stacks from the store…</source>
        <translation>正在加载调用栈：从存储中读取调用栈…</translation>
    </message>
    <message>
        <source>Loading call stacks: building the call tree…</source>
        <translation>正在加载调用栈：构建调用树…</translation>
    </message>
    <message>
        <source>Loading call stacks: building the bottom-up tree…</source>
        <translation>正在加载调用栈：构建自底向上的树…</translation>
    </message>
    <message>
        <source> %1 of %2</source>
        <translation> %1 / %2</translation>
    </message>
    <message>
        <source>Open a trace to see its call stacks.</source>
        <translation>打开一个记录以查看它的调用栈。</translation>
    </message>
    <message>
        <source>Nothing to show for this metric here (no stack has a value).</source>
        <translation>此指标在这里没有可显示的内容（没有调用栈有值）。</translation>
    </message>
    <message>
        <source>%1% of the total is under “%2” (%3)</source>
        <translation>总量的 %1% 在“%2”之下（%3）</translation>
    </message>
    <message>
        <source>%1: %2 (%3%), self %4</source>
        <translation>%1：%2（%3%），自身 %4</translation>
    </message>
    <message>
        <source>Total: %1</source>
        <translation>总计：%1</translation>
    </message>
    <message>
        <source>zoomed into %1: %2</source>
        <translation>已放大到 %1：%2</translation>
    </message>
    <message>
        <source>%1 stacks deeper than %2 frames: their tails are folded</source>
        <translation>%1 个调用栈深于 %2 帧：其末端已折叠</translation>
    </message>
</context>
<context>
    <name>memviz::FreeingLesson</name>
    <message>
        <source>A tensor is freed when the last reference to it goes. Python names keep tensors alive longer than needed: the previous step&apos;s &lt;code&gt;out&lt;/code&gt; and &lt;code&gt;loss&lt;/code&gt; until the names are rebound, zeroed gradients until the next backward overwrites them, and a loss kept in a list keeps its whole graph when no backward pass freed it. Each row is one habit with what it saves at the peak for the chosen model, computed from the cost model&apos;s op-by-op simulation of the step.</source>
        <translation>当最后一个引用消失时，张量才会被释放。Python 变量会让张量活得比需要的更久：上一步的 &lt;code&gt;out&lt;/code&gt; 和 &lt;code&gt;loss&lt;/code&gt; 要等到变量被重新赋值，清零的梯度要等到下一次反向传播覆盖它们，而放进列表里的 loss 在没有反向传播释放它时，会保留整张计算图。每一行是一个习惯，以及它在所选模型的峰值处节省的内存，由代价模型逐个算子模拟训练步计算得出。</translation>
    </message>
    <message>
        <source>Evaluation batches kept:</source>
        <translation>保留的评估批次数：</translation>
    </message>
    <message>
        <source>%1, batch %2: the training step peaks at &lt;b&gt;%3&lt;/b&gt; with every habit below done right. The output of one step is %4, all gradients %5, and a forward pass with grad keeps %6 for backward.</source>
        <translation>%1，批大小 %2：在下面每个习惯都做对的情况下，训练步峰值为 &lt;b&gt;%3&lt;/b&gt;。一步的输出为 %4，全部梯度为 %5，一次带梯度的前向传播会为反向保留 %6。</translation>
    </message>
    <message>
        <source>the previous step&apos;s output and loss live through the next forward pass</source>
        <translation>上一步的输出和 loss 会一直存活到下一次前向传播</translation>
    </message>
    <message>
        <source>zeroed gradients stay allocated through the forward and backward passes</source>
        <translation>清零的梯度在前向和反向传播期间一直占着内存</translation>
    </message>
    <message>
        <source>autograd saves activations for a backward pass that never comes</source>
        <translation>autograd 为一个永远不会到来的反向传播保存激活值</translation>
    </message>
    <message>
        <source>losses.append(loss) in an evaluation loop without no_grad keeps each batch&apos;s graph: %1 batches</source>
        <translation>在没有 no_grad 的评估循环中 losses.append(loss) 会保留每个批次的计算图：%1 个批次</translation>
    </message>
    <message>
        <source>do this</source>
        <translation>这样做</translation>
    </message>
    <message>
        <source>saves</source>
        <translation>节省</translation>
    </message>
    <message>
        <source>peak without it</source>
        <translation>不这样做时的峰值</translation>
    </message>
    <message>
        <source>without it</source>
        <translation>不这样做时</translation>
    </message>
    <message>
        <source>%1 (nothing at the peak here: the peak is in the %2 phase)</source>
        <translation>%1（此处峰值不受影响：峰值出现在%2阶段）</translation>
    </message>
    <message>
        <source>saved at the peak</source>
        <translation>峰值处节省</translation>
    </message>
    <message>
        <source>saved (%1)</source>
        <translation>节省（%1）</translation>
    </message>
    <message>
        <source>Freeing intermediates: del, item(), set_to_none, no_grad</source>
        <translation>释放中间结果：del、item()、set_to_none、no_grad</translation>
    </message>
    <message>
        <source>Freeing intermediates</source>
        <translation>释放中间结果</translation>
    </message>
</context>
<context>
    <name>memviz::ImportPreview</name>
    <message>
        <source>Memory read so far. The timeline, the allocations and the other views open when the import ends.</source>
        <translation>目前已读取的内存。导入结束后将打开时间线、分配列表和其他视图。</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>%1 allocated</source>
        <translation>%1 已分配</translation>
    </message>
    <message>
        <source>%1 reserved</source>
        <translation>%1 已保留</translation>
    </message>
    <message>
        <source>%1 – peak so far: %2 (now %3 allocated, %4 reserved)</source>
        <translation>%1 – 目前峰值：%2（当前已分配 %3，已保留 %4）</translation>
    </message>
    <message>
        <source>Memory (%1)</source>
        <translation>内存（%1）</translation>
    </message>
</context>
<context>
    <name>memviz::ImportTask</name>
    <message>
        <source>reading</source>
        <translation>读取中</translation>
    </message>
    <message>
        <source>building</source>
        <translation>构建中</translation>
    </message>
    <message>
        <source>writing the store</source>
        <translation>写入存储</translation>
    </message>
    <message>
        <source>while opening %1</source>
        <translation>在打开 %1 时</translation>
    </message>
    <message>
        <source>while reading byte %1 of %2</source>
        <translation>在读取 %2 的第 %1 字节时</translation>
    </message>
    <message>
        <source>while building the trace from %1 (the whole file was read)</source>
        <translation>在根据 %1 构建记录时（整个文件已读完）</translation>
    </message>
    <message>
        <source>while writing the trace of %1 into the store</source>
        <translation>在把 %1 的记录写入存储时</translation>
    </message>
    <message>
        <source>memviz&apos;s reader ran out of memory %1: it may use at most %2 (set by import/memoryLimit in the settings or the environment variable MEMVIZ_IMPORT_MEMORY_LIMIT; by default half of this machine&apos;s memory).</source>
        <translation>memviz 的读取进程%1内存不足：它最多可用 %2（由设置中的 import/memoryLimit 或环境变量 MEMVIZ_IMPORT_MEMORY_LIMIT 设定；默认为本机内存的一半）。</translation>
    </message>
    <message>
        <source>memviz&apos;s reader was killed (signal %1, %2) %3; the system may have run out of memory.</source>
        <translation>memviz 的读取进程%3被终止（信号 %1，%2）；系统可能已内存不足。</translation>
    </message>
    <message>
        <source>memviz&apos;s reader stopped unexpectedly (signal %1, %2) %3.</source>
        <translation>memviz 的读取进程%3意外停止（信号 %1，%2）。</translation>
    </message>
    <message>
        <source>memviz&apos;s reader stopped unexpectedly (exit status %1) %2.</source>
        <translation>memviz 的读取进程%2意外停止（退出状态 %1）。</translation>
    </message>
    <message>
        <source>Nothing was stored; the window and its traces are not affected.</source>
        <translation>未存储任何内容；窗口及其记录不受影响。</translation>
    </message>
    <message>
        <source>Its last message: %1</source>
        <translation>它的最后一条消息：%1</translation>
    </message>
    <message>
        <source>%1: no such file</source>
        <translation>%1：文件不存在</translation>
    </message>
    <message>
        <source>%1 is a folder, not a trace file</source>
        <translation>%1 是文件夹，不是记录文件</translation>
    </message>
    <message>
        <source>%1 cannot be read (permission denied)</source>
        <translation>无法读取 %1（权限不足）</translation>
    </message>
    <message>
        <source>Could not start memviz&apos;s reader (%1): %2</source>
        <translation>无法启动 memviz 的读取进程（%1）：%2</translation>
    </message>
</context>
<context>
    <name>memviz::LaunchDialog</name>
    <message>
        <source>Launch and Record</source>
        <translation>启动并记录</translation>
    </message>
    <message>
        <source>e.g. python3 train.py --epochs 1</source>
        <translation>例如 python3 train.py --epochs 1</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>命令(&amp;C)：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>&amp;Run in:</source>
        <translation>运行目录(&amp;R)：</translation>
    </message>
    <message>
        <source>Run in</source>
        <translation>运行目录</translation>
    </message>
    <message>
        <source>&amp;Launch</source>
        <translation>启动(&amp;L)</translation>
    </message>
    <message>
        <source>The program is sampled from its first moment until it exits. The line is split into words as a shell would (&apos;…&apos; and &quot;…&quot; group, \ escapes), but no shell runs it (use sh -c &apos;…&apos; for pipes).</source>
        <translation>程序从启动的第一刻起被采样，直到退出。命令行像 shell 那样拆分成参数（&apos;…&apos; 和 &quot;…&quot; 用于组合，\ 用于转义），但不经过 shell 运行（需要管道时请用 sh -c &apos;…&apos;）。</translation>
    </message>
    <message>
        <source>Also record &amp;native allocation sites through heaptrack</source>
        <translation>同时通过 heaptrack 记录原生分配位置(&amp;N)</translation>
    </message>
    <message>
        <source>The program runs under heaptrack: heap consumed, allocation rate and the top allocation sites live beside RSS, and heaptrack&apos;s complete recording is imported when it ends (Stop ends the program)</source>
        <translation>程序在 heaptrack 下运行：已占用的堆、分配速率和最主要的分配位置实时显示在 RSS 旁边；程序结束时导入 heaptrack 的完整记录（停止会结束程序）</translation>
    </message>
    <message>
        <source>Native allocations unavailable: %1.</source>
        <translation>无法记录原生分配：%1。</translation>
    </message>
</context>
<context>
    <name>memviz::LearnWindow</name>
    <message>
        <source>memviz – Learn</source>
        <translation>memviz – 学习</translation>
    </message>
    <message>
        <source>&amp;Lesson</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Previous Lesson</source>
        <translation>上一课(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Next Lesson</source>
        <translation>下一课(&amp;N)</translation>
    </message>
    <message>
        <source>Export &amp;Plot (PNG, SVG, PDF)…</source>
        <translation>导出图表（PNG、SVG、PDF）(&amp;P)…</translation>
    </message>
    <message>
        <source>Export &amp;Table as CSV…</source>
        <translation>将表格导出为 CSV(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Presenter Mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;High Contrast</source>
        <translation>高对比度(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Larger</source>
        <translation>放大(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Smaller</source>
        <translation>缩小(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Normal Size</source>
        <translation>正常大小(&amp;N)</translation>
    </message>
    <message>
        <source>Scale ×%1</source>
        <translation>缩放 ×%1</translation>
    </message>
    <message>
        <source>This page has no plot.</source>
        <translation>此页面没有图表。</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>This page has no table.</source>
        <translation>此页面没有表格。</translation>
    </message>
    <message>
        <source>&amp;OOM Decoder</source>
        <translation>OOM 报错解读(&amp;O)</translation>
    </message>
</context>
<context>
    <name>memviz::Lesson</name>
    <message>
        <source>Open in the What-If Panel</source>
        <translation>在假设分析面板中打开</translation>
    </message>
    <message>
        <source>Show this lesson&apos;s model and settings in the main window&apos;s what-if panel (Ctrl+E).</source>
        <translation>在主窗口的假设分析面板（Ctrl+E）中显示本课的模型和设置。</translation>
    </message>
</context>
<context>
    <name>memviz::LiveActions</name>
    <message>
        <source>&amp;Attach to Process…</source>
        <translation>附加到进程(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Launch and Record…</source>
        <translation>启动并记录(&amp;L)…</translation>
    </message>
    <message>
        <source>Wait for &amp;Probe…</source>
        <translation>等待探针(&amp;P)…</translation>
    </message>
    <message>
        <source>Recording pid %1 – memviz</source>
        <translation>正在记录进程 %1 – memviz</translation>
    </message>
    <message>
        <source>Recording %1 – memviz</source>
        <translation>正在记录 %1 – memviz</translation>
    </message>
    <message>
        <source>Cannot listen</source>
        <translation>无法监听</translation>
    </message>
    <message>
        <source>Waiting for the probe on %1 – memviz</source>
        <translation>正在 %1 上等待探针 – memviz</translation>
    </message>
    <message>
        <source>Cannot record</source>
        <translation>无法记录</translation>
    </message>
    <message>
        <source>pid %1</source>
        <translation>进程 %1</translation>
    </message>
    <message>
        <source>Native allocations of %1 – memviz</source>
        <translation>%1 的原生分配 – memviz</translation>
    </message>
    <message>
        <source>PyTorch probe in pid %1 – memviz</source>
        <translation>进程 %1 中的 PyTorch 探针 – memviz</translation>
    </message>
</context>
<context>
    <name>memviz::LiveView</name>
    <message>
        <source>Add &amp;Marker</source>
        <translation>添加标记(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Pause View</source>
        <translation>暂停视图(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Terminate Program</source>
        <translation>终止程序(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Open in Main Window</source>
        <translation>在主窗口中打开(&amp;O)</translation>
    </message>
    <message>
        <source>marker label</source>
        <translation>标记标签</translation>
    </message>
    <message>
        <source>Saves a labelled point at this moment (M)</source>
        <translation>在此刻保存一个带标签的点（M）</translation>
    </message>
    <message>
        <source>Stop following the newest samples; recording goes on (Space)</source>
        <translation>停止跟随最新的样本；记录继续进行（空格）</translation>
    </message>
    <message>
        <source>What the view shows while it follows the recording</source>
        <translation>视图跟随记录时显示的范围</translation>
    </message>
    <message>
        <source>Stops recording and saves it (Ctrl+.)</source>
        <translation>停止记录并保存（Ctrl+.）</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>&amp;Resume View</source>
        <translation>恢复视图(&amp;R)</translation>
    </message>
    <message>
        <source>marker %1</source>
        <translation>标记 %1</translation>
    </message>
    <message>
        <source> (pid %1)</source>
        <translation>（进程 %1）</translation>
    </message>
    <message>
        <source>Starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <source>● Recording %1</source>
        <translation>● 正在记录 %1</translation>
    </message>
    <message>
        <source>Recorded %1</source>
        <translation>已记录 %1</translation>
    </message>
    <message>
        <source>Recording failed</source>
        <translation>记录失败</translation>
    </message>
    <message>
        <source>%L1 samples saved</source>
        <translation>已保存 %L1 个样本</translation>
    </message>
    <message>
        <source> — saved in %1 (trace %2).</source>
        <translation> — 已保存在 %1（记录 %2）。</translation>
    </message>
    <message>
        <source>exited with status %1</source>
        <translation>以状态 %1 退出</translation>
    </message>
    <message>
        <source>killed by signal %1 (%2)</source>
        <translation>被信号 %1（%2）终止</translation>
    </message>
    <message>
        <source>ended</source>
        <translation>已结束</translation>
    </message>
    <message>
        <source>The program&apos;s last lines on stderr:</source>
        <translation>程序在 stderr 上输出的最后几行：</translation>
    </message>
    <message>
        <source>&amp;Kill Program</source>
        <translation>强制结束程序(&amp;K)</translation>
    </message>
    <message>
        <source>Asks the launched program to end (SIGTERM)</source>
        <translation>请求启动的程序结束（SIGTERM）</translation>
    </message>
    <message>
        <source>Ends the launched program at once (SIGKILL): for a program that ignores Terminate</source>
        <translation>立即结束启动的程序（SIGKILL）：用于不理会“终止”的程序</translation>
    </message>
    <message>
        <source>1 sample saved</source>
        <translation>已保存 1 个样本</translation>
    </message>
    <message>
        <source>%1 then ended: %2.</source>
        <translation>%1 随后结束：%2。</translation>
    </message>
</context>
<context>
    <name>memviz::LiveWindow</name>
    <message>
        <source>Stop recording?</source>
        <translation>停止记录？</translation>
    </message>
    <message>
        <source>The recording is still running. Stop it and keep what was recorded?</source>
        <translation>记录仍在进行。要停止并保留已记录的内容吗？</translation>
    </message>
</context>
<context>
    <name>memviz::MainWindow</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>memviz</source>
        <translation>memviz</translation>
    </message>
    <message>
        <source>Import cancelled; nothing was stored.</source>
        <translation>导入已取消；没有保存任何内容。</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open trace</source>
        <translation>打开记录</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Open &amp;Sample Trace</source>
        <translation>打开示例记录(&amp;S)</translation>
    </message>
    <message>
        <source>Export &amp;Timeline (PNG, SVG, PDF)…</source>
        <translation>导出时间线（PNG、SVG、PDF）(&amp;T)…</translation>
    </message>
    <message>
        <source>Export Ta&amp;ble as CSV…</source>
        <translation>将表格导出为 CSV(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Clear Selection</source>
        <translation>清除选择(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Filter Table</source>
        <translation>筛选表格(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Learn</source>
        <translation>学习(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Lessons…</source>
        <translation>课程(&amp;L)…</translation>
    </message>
    <message>
        <source>&amp;OOM Decoder…</source>
        <translation>OOM 报错解读(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;How to Use the Timeline</source>
        <translation>如何使用时间线(&amp;H)</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Wheel: zoom the time axis. Drag: pan.
Shift+drag or right-drag: select a time window; the operator table then shows only that window.
Double-click or Esc: clear the selection. Home: whole trace.</source>
        <translation>滚轮：缩放时间轴。拖动：平移。
Shift+拖动或右键拖动：选择一个时间窗口；算子表随后只显示该窗口。
双击或 Esc：清除选择。Home：整个记录。</translation>
    </message>
    <message>
        <source>&amp;About memviz</source>
        <translation>关于 memviz(&amp;A)</translation>
    </message>
    <message>
        <source>About memviz</source>
        <translation>关于 memviz</translation>
    </message>
    <message>
        <source>memviz %1
See where memory went, and what to change.</source>
        <translation>memviz %1
看清内存去了哪里，以及该改什么。</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Follow the &amp;System</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <source>The current tab has no table.</source>
        <translation>当前标签页没有表格。</translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation>清空列表</translation>
    </message>
    <message>
        <source>An import is still running; cancel it first.</source>
        <translation>仍有导入在进行中；请先取消它。</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>%1 – memviz</source>
        <translation>%1 – memviz</translation>
    </message>
    <message>
        <source>Cannot open file</source>
        <translation>无法打开文件</translation>
    </message>
    <message>
        <source>No trace open – Ctrl+O to open one, or drop a file here</source>
        <translation>没有打开的记录 – 按 Ctrl+O 打开，或把文件拖到这里</translation>
    </message>
    <message>
        <source>%1 peak %2</source>
        <translation>%1 峰值 %2</translation>
    </message>
    <message>
        <source>devices: %1</source>
        <translation>设备：%1</translation>
    </message>
    <message>
        <source>&amp;Operators</source>
        <translation>算子(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Memory Events</source>
        <translation>内存事件(&amp;M)</translation>
    </message>
    <message>
        <source>What-if: memory of one training step</source>
        <translation>假设分析：一个训练步的内存</translation>
    </message>
    <message>
        <source>&amp;What-If Panel</source>
        <translation>假设分析面板(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Record</source>
        <translation>记录(&amp;R)</translation>
    </message>
    <message>
        <source>%1 %p%</source>
        <translation>%1 %p%</translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <source>Could not open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Import of %1 cancelled; nothing was stored.</source>
        <translation>已取消导入 %1；未存储任何内容。</translation>
    </message>
    <message>
        <source>&amp;Compare With…</source>
        <translation>与其他记录比较(&amp;C)…</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Open a trace first; it becomes trace A of the comparison.</source>
        <translation>请先打开一个记录；它将作为比较中的记录 A。</translation>
    </message>
    <message>
        <source>Compare with trace</source>
        <translation>与记录比较</translation>
    </message>
    <message>
        <source>Compare With a Trace of This Store…</source>
        <translation>与此存储中的另一记录比较…</translation>
    </message>
    <message>
        <source>Open Ran&amp;ks…</source>
        <translation>打开多 rank 记录(&amp;K)…</translation>
    </message>
    <message>
        <source>Folder of rank files (rank0…, rank1…)</source>
        <translation>rank 文件所在的文件夹（rank0…、rank1…）</translation>
    </message>
    <message>
        <source>Ranks of This Store</source>
        <translation>此存储中的各 rank 记录</translation>
    </message>
    <message>
        <source>Ne&amp;xt Tab</source>
        <translation>下一个标签页(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;Previous Tab</source>
        <translation>上一个标签页(&amp;P)</translation>
    </message>
    <message>
        <source>Cannot compare</source>
        <translation>无法比较</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>no memory recorded</source>
        <translation>未记录内存</translation>
    </message>
</context>
<context>
    <name>memviz::MassifTreeModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation>%L1 字节</translation>
    </message>
    <message>
        <source>Allocated by</source>
        <translation>分配者</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Of total</source>
        <translation>占总量</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>源码位置</translation>
    </message>
</context>
<context>
    <name>memviz::MassifView</name>
    <message>
        <source>Detailed snapshot:</source>
        <translation>详细快照：</translation>
    </message>
    <message>
        <source>%1%2 – %3 – %4</source>
        <translation>%1%2 – %3 – %4</translation>
    </message>
    <message>
        <source> (peak)</source>
        <translation>（峰值）</translation>
    </message>
    <message>
        <source>Cannot read the massif snapshots: %1</source>
        <translation>无法读取 massif 快照：%1</translation>
    </message>
    <message>
        <source>Cannot read the heap tree: %1</source>
        <translation>无法读取堆树：%1</translation>
    </message>
    <message>
        <source>Reading the massif snapshots…</source>
        <translation>正在读取 massif 快照…</translation>
    </message>
    <message>
        <source>This trace has no detailed snapshots (massif --detailed-freq).</source>
        <translation>此记录没有详细快照（massif --detailed-freq）。</translation>
    </message>
    <message>
        <source>Reading the heap tree of snapshot %1…</source>
        <translation>正在读取快照 %1 的堆树…</translation>
    </message>
</context>
<context>
    <name>memviz::MemoryEventsModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation>%L1 字节</translation>
    </message>
    <message>
        <source>before the trace</source>
        <translation>记录开始之前</translation>
    </message>
    <message>
        <source>alive at the end</source>
        <translation>到结束时仍存活</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>地址</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Allocated at</source>
        <translation>分配于</translation>
    </message>
    <message>
        <source>Released at</source>
        <translation>释放于</translation>
    </message>
    <message>
        <source>Lifetime</source>
        <translation>存活时间</translation>
    </message>
    <message>
        <source>Operator (innermost, same thread)</source>
        <translation>算子（最内层，同一线程）</translation>
    </message>
    <message>
        <source>Thread</source>
        <translation>线程</translation>
    </message>
</context>
<context>
    <name>memviz::MemoryEventsView</name>
    <message>
        <source>memory events</source>
        <translation>内存事件</translation>
    </message>
</context>
<context>
    <name>memviz::MemoryLimitPicker</name>
    <message>
        <source>e.g. 24GiB</source>
        <translation>例如 24GiB</translation>
    </message>
    <message>
        <source>This machine: %1 RAM</source>
        <translation>本机：%1 内存</translation>
    </message>
    <message>
        <source>Typed size</source>
        <translation>输入大小</translation>
    </message>
    <message>
        <source>No limit</source>
        <translation>无上限</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>无上限</translation>
    </message>
</context>
<context>
    <name>memviz::MixedPrecisionLesson</name>
    <message>
        <source>&lt;code&gt;torch.autocast&lt;/code&gt; runs matrix multiplications and convolutions in float16 (bfloat16 on the CPU) but keeps in float32 what needs the range or the precision: the weights themselves (autocast casts a 16-bit copy of each for the step), their gradients, the optimizer state, and the ops on its float32 list — softmax, log_softmax, layer_norm, the losses, sums and norms. Only the activations of the 16-bit ops shrink. With a small batch the weights and the optimizer dominate, so AMP saves little or even costs memory; with a large batch the activations dominate and the saving approaches half.</source>
        <translation>&lt;code&gt;torch.autocast&lt;/code&gt; 用 float16（CPU 上为 bfloat16）执行矩阵乘法和卷积，但把需要数值范围或精度的部分保留为 float32：权重本身（autocast 会为该训练步把每个权重转换出一份 16 位副本）、它们的梯度、优化器状态，以及它的 float32 列表中的算子——softmax、log_softmax、layer_norm、各种损失函数、求和与范数。只有 16 位算子的激活值会变小。批量小时，权重和优化器占大头，所以 AMP 节省很少，甚至更耗内存；批量大时，激活值占大头，节省量接近一半。</translation>
    </message>
    <message>
        <source>Sweep up to batch:</source>
        <translation>批大小扫描上限：</translation>
    </message>
    <message>
        <source>%1: at batch %2 AMP saves &lt;b&gt;%3&lt;/b&gt; (%4% of %5); at batch %6 it saves &lt;b&gt;%7&lt;/b&gt; (%8% of %9). The float32 weights, gradients and optimizer state (%10) do not shrink.</source>
        <translation>%1：批大小 %2 时 AMP 节省 &lt;b&gt;%3&lt;/b&gt;（%5 的 %4%）；批大小 %6 时节省 &lt;b&gt;%7&lt;/b&gt;（%9 的 %8%）。float32 的权重、梯度和优化器状态（%10）不会变小。</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>float32 peak</source>
        <translation>float32 峰值</translation>
    </message>
    <message>
        <source>AMP peak</source>
        <translation>AMP 峰值</translation>
    </message>
    <message>
        <source>saved</source>
        <translation>节省</translation>
    </message>
    <message>
        <source>saved (%)</source>
        <translation>节省（%）</translation>
    </message>
    <message>
        <source>AMP: weights, gradients, state</source>
        <translation>AMP：权重、梯度、状态</translation>
    </message>
    <message>
        <source>AMP: activations, input, temporaries</source>
        <translation>AMP：激活值、输入、临时张量</translation>
    </message>
    <message>
        <source>batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>peak (%1)</source>
        <translation>峰值（%1）</translation>
    </message>
    <message>
        <source>saved by AMP (%)</source>
        <translation>AMP 节省（%）</translation>
    </message>
    <message>
        <source>Mixed precision: why it saves less than you expect</source>
        <translation>混合精度：为什么节省得比你想的少</translation>
    </message>
    <message>
        <source>Mixed precision</source>
        <translation>混合精度</translation>
    </message>
</context>
<context>
    <name>memviz::ModelLesson</name>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Batch:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>CUDA GPU</source>
        <translation>CUDA GPU</translation>
    </message>
    <message>
        <source>The cost model cannot compute this: %1</source>
        <translation>代价模型无法计算：%1</translation>
    </message>
</context>
<context>
    <name>memviz::NativeSitesView</name>
    <message>
        <source>Allocation site (heaptrack)</source>
        <translation>分配位置（heaptrack）</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>源码位置</translation>
    </message>
    <message>
        <source>Held now</source>
        <translation>当前持有</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>The sites holding the most heap now, as heaptrack&apos;s data says so far (innermost frame outside the allocator). When the recording ends, heaptrack&apos;s complete file is imported as its own trace.</source>
        <translation>目前持有堆内存最多的位置，依据 heaptrack 迄今为止的数据（分配器之外最内层的帧）。记录结束时，heaptrack 的完整文件会作为单独的记录导入。</translation>
    </message>
</context>
<context>
    <name>memviz::NativeTabs</name>
    <message>
        <source>Allocation &amp;sites</source>
        <translation>分配位置(&amp;S)</translation>
    </message>
    <message>
        <source>Heap &amp;tree</source>
        <translation>堆树(&amp;T)</translation>
    </message>
</context>
<context>
    <name>memviz::NoMemoryNotice</name>
    <message>
        <source>It spans %1.</source>
        <translation>它的时间跨度为 %1。</translation>
    </message>
    <message>
        <source>This PyTorch profiler trace has no memory events: it was recorded without &lt;code&gt;profile_memory=True&lt;/code&gt;, so there is no memory curve to draw.</source>
        <translation>这个 PyTorch profiler 记录没有内存事件：记录时没有使用 &lt;code&gt;profile_memory=True&lt;/code&gt;，所以没有内存曲线可画。</translation>
    </message>
    <message>
        <source>What it has is in the tabs below: its operators and their calls (Operators) and, when recorded &lt;code&gt;with_stack=True&lt;/code&gt;, their call stacks (Flame). %1</source>
        <translation>它包含的内容在下方的标签页中：算子及其调用（算子），以及在使用 &lt;code&gt;with_stack=True&lt;/code&gt; 记录时，它们的调用栈（火焰图）。%1</translation>
    </message>
    <message>
        <source>To record memory: &lt;code&gt;torch.profiler.profile(activities=[...], profile_memory=True, record_shapes=True, with_stack=True)&lt;/code&gt;.</source>
        <translation>要记录内存，请使用：&lt;code&gt;torch.profiler.profile(activities=[...], profile_memory=True, record_shapes=True, with_stack=True)&lt;/code&gt;。</translation>
    </message>
    <message>
        <source>This CUDA memory snapshot holds no allocations: no segments, and no trace entries to draw a curve from.</source>
        <translation>这个 CUDA 显存快照不包含任何分配：没有段，也没有可用来绘制曲线的记录条目。</translation>
    </message>
    <message>
        <source>The Snapshot tab shows what the file does hold (its settings, annotations).</source>
        <translation>“快照”标签页显示文件中实际包含的内容（设置、注解）。</translation>
    </message>
    <message>
        <source>To record the history of allocations, call &lt;code&gt;torch.cuda.memory._record_memory_history()&lt;/code&gt; before the code you want to see, and &lt;code&gt;torch.cuda.memory._dump_snapshot(&quot;snapshot.pickle&quot;)&lt;/code&gt; after it.</source>
        <translation>要记录分配的历史，请在想查看的代码之前调用 &lt;code&gt;torch.cuda.memory._record_memory_history()&lt;/code&gt;，并在之后调用 &lt;code&gt;torch.cuda.memory._dump_snapshot(&quot;snapshot.pickle&quot;)&lt;/code&gt;。</translation>
    </message>
    <message>
        <source>This trace has no memory events, so there is no memory curve to draw.</source>
        <translation>此记录没有内存事件，所以没有内存曲线可画。</translation>
    </message>
    <message>
        <source>No memory in this trace</source>
        <translation>此记录中没有内存数据</translation>
    </message>
</context>
<context>
    <name>memviz::OomDecoderPage</name>
    <message>
        <source>Paste a PyTorch out-of-memory message, or the end of the traceback. The decoder reads the numbers, converts them to both unit systems, shows tensors of the requested size and how much memory was missing, and ranks what would fix it.</source>
        <translation>粘贴一条 PyTorch 内存不足的报错，或回溯的末尾。解读器会读出其中的数字，换算成两种单位，给出这个大小对应的张量、缺少了多少内存，并对解决办法排序。</translation>
    </message>
    <message>
        <source>Examples:</source>
        <translation>示例：</translation>
    </message>
    <message>
        <source>Pick a real message…</source>
        <translation>选择一条真实的报错…</translation>
    </message>
    <message>
        <source>CPU, Windows: not enough memory</source>
        <translation>CPU，Windows：not enough memory</translation>
    </message>
    <message>
        <source>CPU, Linux: can&apos;t allocate memory</source>
        <translation>CPU，Linux：can&apos;t allocate memory</translation>
    </message>
    <message>
        <source>CPU, PyTorch 0.4: Buy new RAM!</source>
        <translation>CPU，PyTorch 0.4：Buy new RAM!</translation>
    </message>
    <message>
        <source>CUDA, PyTorch 1.x: (GPU 0; …)</source>
        <translation>CUDA，PyTorch 1.x：(GPU 0; …)</translation>
    </message>
    <message>
        <source>CUDA, PyTorch 2.x: fragmentation</source>
        <translation>CUDA，PyTorch 2.x：碎片化</translation>
    </message>
    <message>
        <source>CUDA, PyTorch 2.x: larger than free</source>
        <translation>CUDA，PyTorch 2.x：请求大于空闲</translation>
    </message>
    <message>
        <source>Apple MPS</source>
        <translation>Apple MPS</translation>
    </message>
    <message>
        <source>CUDA error without numbers</source>
        <translation>没有数字的 CUDA 错误</translation>
    </message>
    <message>
        <source>Paste the message here…</source>
        <translation>在这里粘贴报错…</translation>
    </message>
    <message>
        <source>quantity</source>
        <translation>数量</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>OOM decoder: what an out-of-memory message says</source>
        <translation>OOM 报错解读：内存不足的报错在说什么</translation>
    </message>
    <message>
        <source>AMP</source>
        <translation>AMP</translation>
    </message>
    <message>
        <source>Rank the fixes for:</source>
        <translation>为以下模型排序解决办法：</translation>
    </message>
    <message>
        <source>no model (general advice only)</source>
        <translation>不选模型（仅一般建议）</translation>
    </message>
    <message>
        <source>Batch:</source>
        <translation>批大小：</translation>
    </message>
    <message>
        <source>The cost model cannot rank fixes for this setup: %1</source>
        <translation>代价模型无法为这个设置排序解决办法：%1</translation>
    </message>
    <message>
        <source>OOM decoder</source>
        <translation>OOM 报错解读</translation>
    </message>
</context>
<context>
    <name>memviz::OpsTableModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation>%L1 字节</translation>
    </message>
    <message>
        <source>Operator</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Allocations</source>
        <translation>分配次数</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Freed</source>
        <translation>已释放</translation>
    </message>
    <message>
        <source>Net</source>
        <translation>净值</translation>
    </message>
    <message>
        <source>Largest</source>
        <translation>最大</translation>
    </message>
</context>
<context>
    <name>memviz::OpsView</name>
    <message>
        <source>operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>no allocation is in the snapshot&apos;s history (taken without torch.cuda.memory._record_memory_history, or after its entries were dropped), so none names its operator</source>
        <translation>快照的历史中没有任何分配（拍摄时未调用 torch.cuda.memory._record_memory_history，或其条目已被丢弃），因此没有分配能指明其算子</translation>
    </message>
    <message>
        <source>no allocation of this trace names an operator</source>
        <translation>这份记录中没有任何分配指明其算子</translation>
    </message>
</context>
<context>
    <name>memviz::OptimizerLesson</name>
    <message>
        <source>Besides the weights and their gradients, the optimizer keeps state for every parameter: nothing for plain SGD, a momentum buffer for SGD with momentum, one running average for Adagrad and RMSprop, two (first and second moments) for Adam and AdamW, and for LBFGS two flat copies of all parameters plus two per remembered step of its history. With float32 that is %1 bytes per parameter for SGD, %2 for Adam, and %3 for LBFGS with its default history of %4 steps.</source>
        <translation>除了权重和它们的梯度，优化器还要为每个参数保存状态：普通 SGD 不保存，带动量的 SGD 保存一个动量缓冲区，Adagrad 和 RMSprop 保存一个滑动平均，Adam 和 AdamW 保存两个（一阶和二阶矩），LBFGS 保存所有参数的两份扁平副本，外加历史中每一步的两份。使用 float32 时，SGD 每个参数 %1 字节，Adam %2 字节，默认历史长度为 %4 步的 LBFGS 为 %3 字节。</translation>
    </message>
    <message>
        <source>LBFGS history:</source>
        <translation>LBFGS 历史长度：</translation>
    </message>
    <message>
        <source>%1 has %2 parameters. Adam&apos;s state: &lt;b&gt;%3&lt;/b&gt; (%4 bytes per parameter with the weight and its gradient); SGD: none (%5 bytes per parameter). The step peaks at &lt;b&gt;%6&lt;/b&gt; with Adam and &lt;b&gt;%7&lt;/b&gt; with SGD.</source>
        <translation>%1 有 %2 个参数。Adam 的状态：&lt;b&gt;%3&lt;/b&gt;（加上权重和梯度，每个参数 %4 字节）；SGD：没有状态（每个参数 %5 字节）。训练步峰值：Adam 为 &lt;b&gt;%6&lt;/b&gt;，SGD 为 &lt;b&gt;%7&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>state per parameter</source>
        <translation>每个参数的状态数</translation>
    </message>
    <message>
        <source>bytes per parameter</source>
        <translation>每个参数的字节数</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>state at the peak</source>
        <translation>峰值时的状态</translation>
    </message>
    <message>
        <source>peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>peak phase</source>
        <translation>峰值阶段</translation>
    </message>
    <message>
        <source>Optimizers: state per parameter</source>
        <translation>优化器：每个参数的状态</translation>
    </message>
    <message>
        <source>Optimizers</source>
        <translation>优化器</translation>
    </message>
</context>
<context>
    <name>memviz::ProbeDialog</name>
    <message>
        <source>Wait for Probe</source>
        <translation>等待探针</translation>
    </message>
    <message>
        <source>&amp;Listen on:</source>
        <translation>监听地址(&amp;L)：</translation>
    </message>
    <message>
        <source>unix:PATH (private to you) or 127.0.0.1:PORT</source>
        <translation>unix:路径（仅你可用）或 127.0.0.1:端口</translation>
    </message>
    <message>
        <source>&amp;Copy Command</source>
        <translation>复制命令(&amp;C)</translation>
    </message>
    <message>
        <source>Run your script under the probe (PyTorch 1.13 or newer). Operators, phases and steps stream in as it runs; add --mode module for lower overhead.</source>
        <translation>在探针下运行你的脚本（PyTorch 1.13 或更新版本）。算子、阶段和训练步会在运行时实时传来；加上 --mode module 可降低开销。</translation>
    </message>
    <message>
        <source>&amp;Wait for Probe</source>
        <translation>等待探针(&amp;W)</translation>
    </message>
</context>
<context>
    <name>memviz::ProcessListModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation>%L1 字节</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>进程号</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>RSS</source>
        <translation>RSS</translation>
    </message>
    <message>
        <source>Command line</source>
        <translation>命令行</translation>
    </message>
</context>
<context>
    <name>memviz::ProcessPickerDialog</name>
    <message>
        <source>Attach to Process</source>
        <translation>附加到进程</translation>
    </message>
    <message>
        <source>Filter by pid, name or command line</source>
        <translation>按进程号、名称或命令行筛选</translation>
    </message>
    <message>
        <source>&amp;Attach</source>
        <translation>附加(&amp;A)</translation>
    </message>
    <message>
        <source>All processes (memviz runs as root).</source>
        <translation>所有进程（memviz 以 root 身份运行）。</translation>
    </message>
    <message>
        <source>Your processes. Another user&apos;s can only be recorded as that user or root.</source>
        <translation>你的进程。其他用户的进程只能以该用户或 root 身份记录。</translation>
    </message>
    <message>
        <source>Attach the PyTorch &amp;Probe</source>
        <translation>附加 PyTorch 探针(&amp;P)</translation>
    </message>
    <message>
        <source>Record &amp;Native Allocations</source>
        <translation>记录原生分配(&amp;N)</translation>
    </message>
    <message>
        <source>Sample the process&apos; memory (RSS and its parts) from /proc</source>
        <translation>从 /proc 采样进程的内存（RSS 及其组成部分）</translation>
    </message>
    <message>
        <source>Inject the PyTorch probe into this running Python through gdb and record every operator; Stop removes it and the script runs on</source>
        <translation>通过 gdb 把 PyTorch 探针注入这个正在运行的 Python 并记录每个算子；停止时移除探针，脚本继续运行</translation>
    </message>
    <message>
        <source>Attach heaptrack through gdb (as heaptrack -p): heap consumed, allocation rate and the top allocation sites live beside RSS; on Stop heaptrack is detached and its complete recording imported</source>
        <translation>通过 gdb 附加 heaptrack（同 heaptrack -p）：已占用的堆、分配速率和最主要的分配位置实时显示在 RSS 旁边；停止时卸下 heaptrack 并导入它的完整记录</translation>
    </message>
    <message>
        <source>Native allocations unavailable: %1.</source>
        <translation>无法记录原生分配：%1。</translation>
    </message>
    <message>
        <source>Native allocations unavailable: gdb is not installed (apt install gdb); heaptrack attaches through it.</source>
        <translation>无法记录原生分配：未安装 gdb（apt install gdb）；heaptrack 需要通过它附加。</translation>
    </message>
    <message>
        <source>Native allocations: select a process to attach heaptrack to.</source>
        <translation>原生分配：请选择要附加 heaptrack 的进程。</translation>
    </message>
    <message>
        <source>Native allocations: heaptrack is attached to pid %1 through gdb; its allocation sites are recorded until Stop.</source>
        <translation>原生分配：heaptrack 已通过 gdb 附加到进程 %1；在停止之前会一直记录它的分配位置。</translation>
    </message>
    <message>
        <source>Select a process. For a Python running PyTorch, the probe can be attached to record its operators.</source>
        <translation>请选择一个进程。对于运行 PyTorch 的 Python 进程，可以附加探针来记录它的算子。</translation>
    </message>
    <message>
        <source>PyTorch probe: %1 (pid %2) runs Python with PyTorch loaded; the probe is injected through gdb and removed again on Stop.</source>
        <translation>PyTorch 探针：%1（进程 %2）运行的 Python 已加载 PyTorch；探针通过 gdb 注入，停止时再移除。</translation>
    </message>
    <message>
        <source>PyTorch probe unavailable: %1. Attach samples its memory.</source>
        <translation>无法使用 PyTorch 探针：%1。“附加”只采样它的内存。</translation>
    </message>
</context>
<context>
    <name>memviz::ProfilerOpsModel</name>
    <message>
        <source>%L1 bytes</source>
        <translation>%L1 字节</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Input Shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>Sum of Bytes of %1 memory events inside each call (Self: minus its children)</source>
        <translation>每次调用内部 %1 个内存事件的 Bytes 之和（Self：减去其子调用）</translation>
    </message>
    <message>
        <source>%1 Mem</source>
        <translation>%1 内存</translation>
    </message>
    <message>
        <source>Self %1 Mem</source>
        <translation>Self %1 内存</translation>
    </message>
    <message>
        <source>Allocations (positive Bytes only) on %1</source>
        <translation>%1 上的分配（仅正的 Bytes）</translation>
    </message>
    <message>
        <source>%1 Allocation Count</source>
        <translation>%1 分配次数</translation>
    </message>
    <message>
        <source>%1 Allocation Size</source>
        <translation>%1 分配大小</translation>
    </message>
    <message>
        <source>Self %1 Allocation Count</source>
        <translation>Self %1 分配次数</translation>
    </message>
    <message>
        <source>Self %1 Allocation Size</source>
        <translation>Self %1 分配大小</translation>
    </message>
</context>
<context>
    <name>memviz::ProfilerOpsView</name>
    <message>
        <source>operators</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Group by input shapes</source>
        <translation>按输入形状分组</translation>
    </message>
    <message>
        <source>One row per operator and input shapes, like key_averages(group_by_input_shape=True)</source>
        <translation>每个算子和输入形状一行，类似 key_averages(group_by_input_shape=True)</translation>
    </message>
</context>
<context>
    <name>memviz::RanksHeatmap</name>
    <message>
        <source>One row per rank, its bytes over time as a shade (dark: the largest peak of the set). Click a row to choose the rank, double-click to open its full store</source>
        <translation>每个 rank 一行，其字节数随时间以深浅表示（最深：整组最大的峰值）。单击一行选择该 rank，双击打开其完整存储</translation>
    </message>
    <message>
        <source>dark: %1 (the largest peak)</source>
        <translation>最深：%1（最大的峰值）</translation>
    </message>
</context>
<context>
    <name>memviz::RanksPlot</name>
    <message>
        <source>Drag to pan, wheel to zoom (every lane together), Shift+drag or right-drag to select a time window, double-click or Esc to clear it, Home to reset the zoom</source>
        <translation>拖动：平移；滚轮：缩放（所有泳道一起）；Shift+拖动或右键拖动：选择时间窗口；双击或 Esc：清除选择；Home：重置缩放</translation>
    </message>
    <message>
        <source>peak %1</source>
        <translation>峰值 %1</translation>
    </message>
    <message>
        <source>Time since the first rank started (%1)</source>
        <translation>从第一个 rank 开始经过的时间（%1）</translation>
    </message>
    <message>
        <source>Time since each rank&apos;s start (%1)</source>
        <translation>从各 rank 自身开始经过的时间（%1）</translation>
    </message>
</context>
<context>
    <name>memviz::RanksWindow</name>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Ranks — memviz</source>
        <translation>多 rank — memviz</translation>
    </message>
    <message>
        <source>Cannot show the ranks: %1</source>
        <translation>无法显示各 rank：%1</translation>
    </message>
    <message>
        <source>
Cannot read the peaks in the selection: %1</source>
        <translation>
无法读取选区内的峰值：%1</translation>
    </message>
    <message>
        <source>Importing rank file %1 of %2: %3 — %4 %5%</source>
        <translation>正在导入第 %1 个 rank 文件（共 %2 个）：%3 — %4 %5%</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Reading the ranks of %1…</source>
        <translation>正在读取 %1 的各 rank…</translation>
    </message>
    <message>
        <source>Importing rank file %1 of %2: %3…</source>
        <translation>正在导入第 %1 个 rank 文件（共 %2 个）：%3…</translation>
    </message>
    <message>
        <source>Cancelled: no ranks shown.</source>
        <translation>已取消：未显示任何 rank。</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Peak</source>
        <translation>峰值</translation>
    </message>
    <message>
        <source>Peak at</source>
        <translation>峰值时刻</translation>
    </message>
    <message>
        <source>Final</source>
        <translation>最终</translation>
    </message>
    <message>
        <source>Top operator at the peak</source>
        <translation>峰值时最大的算子</translation>
    </message>
    <message>
        <source>Peak in selection</source>
        <translation>选区内峰值</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>%1 ranks, %2 bytes</source>
        <translation>%1 个 rank，字节数来自 %2</translation>
    </message>
    <message>
        <source>each rank&apos;s own CUDA device&apos;s</source>
        <translation>各 rank 自己的 CUDA 设备</translation>
    </message>
    <message>
        <source> · imbalance: %1 peaks at %2, %3 at %4</source>
        <translation> · 不均衡：%1 的峰值为 %2，%3 为 %4</translation>
    </message>
    <message>
        <source> (max/min %1×, %2 apart)</source>
        <translation>（最大/最小 %1×，相差 %2）</translation>
    </message>
    <message>
        <source> (a peak of 0)</source>
        <translation>（有一个峰值为 0）</translation>
    </message>
    <message>
        <source>; most of it %1 (+%2)</source>
        <translation>；差异主要来自 %1（+%2）</translation>
    </message>
    <message>
        <source> · lanes lined up by the clock they recorded</source>
        <translation> · 泳道按各自记录的时钟对齐</translation>
    </message>
    <message>
        <source> · lanes lined up at their starts</source>
        <translation> · 泳道在各自起点对齐</translation>
    </message>
    <message>
        <source> · selected %1</source>
        <translation> · 已选择 %1</translation>
    </message>
    <message>
        <source>
%1 of %2 rank files could not be read and are left out:</source>
        <translation>
%2 个 rank 文件中有 %1 个无法读取，已略去：</translation>
    </message>
    <message>
        <source>From the lane&apos;s curve; the exact value is being read</source>
        <translation>来自泳道的曲线；正在读取精确值</translation>
    </message>
    <message>
        <source>Filter the ranks by name or top operator</source>
        <translation>按名称或最大算子筛选 rank</translation>
    </message>
    <message>
        <source>%1 (%2, net of its calls)</source>
        <translation>%1（%2，其调用的净值）</translation>
    </message>
    <message>
        <source>; most of it %1 (+%2, nets of its calls)</source>
        <translation>；其中大部分为 %1（+%2，其调用的净值）</translation>
    </message>
    <message>
        <source>%1&apos;s full store is not on this machine: %2
Copy it here (it is where its Slurm task wrote it, beside the rank&apos;s file or in the job&apos;s store folder) and choose the rank again.</source>
        <translation>%1 的完整存储不在本机上：%2
请将其复制到这里（它位于其 Slurm 任务写入的位置：该 rank 的文件旁边或作业的存储文件夹中），然后重新选择该 rank。</translation>
    </message>
    <message>
        <source>Opening %1&apos;s full store: %2</source>
        <translation>正在打开 %1 的完整存储：%2</translation>
    </message>
</context>
<context>
    <name>memviz::RecordingOptionsWidget</name>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>How often /proc is read (10 ms at the shortest).</source>
        <translation>读取 /proc 的频率（最短 10 毫秒）。</translation>
    </message>
    <message>
        <source>Sample &amp;every:</source>
        <translation>采样间隔(&amp;E)：</translation>
    </message>
    <message>
        <source>Sum the memory of child processes in</source>
        <translation>把子进程的内存一并计入</translation>
    </message>
    <message>
        <source>Descendants are looked up every 500 ms; their RSS is added (shared pages count once per process; PSS counts them fairly).</source>
        <translation>每 500 毫秒查找一次子孙进程；把它们的 RSS 加进来（共享页在每个进程中各计一次；PSS 会公平分摊）。</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>&amp;Save to:</source>
        <translation>保存到(&amp;S)：</translation>
    </message>
    <message>
        <source>Save recording</source>
        <translation>保存记录</translation>
    </message>
    <message>
        <source>memviz store (*.memviz)</source>
        <translation>memviz 存储文件 (*.memviz)</translation>
    </message>
</context>
<context>
    <name>memviz::SegmentMapWidget</name>
    <message>
        <source>No segments reserved at this moment</source>
        <translation>此刻没有保留任何段</translation>
    </message>
    <message>
        <source>Segment %1: %2, %3 in %L4 blocks, largest free %5</source>
        <translation>段 %1：%2，%3，共 %L4 个块，最大空闲 %5</translation>
    </message>
    <message>
        <source>Click a segment to see it full width here</source>
        <translation>点击一个段，在这里以全宽显示它</translation>
    </message>
    <message>
        <source>All segments, largest first, to the scale of the largest (%1)</source>
        <translation>所有段，从大到小，按最大段（%1）的比例绘制</translation>
    </message>
    <message>
        <source>Segment %1: %2, %3 free (largest gap %4)</source>
        <translation>段 %1：%2，%3 空闲（最大间隙 %4）</translation>
    </message>
    <message>
        <source>
Free space</source>
        <translation>
空闲空间</translation>
    </message>
    <message>
        <source>
Block %1: %2 (%3 requested)%4%5</source>
        <translation>
块 %1：%2（请求了 %3）%4%5</translation>
    </message>
    <message>
        <source>, freed, waiting for other streams</source>
        <translation>，已释放，等待其他流</translation>
    </message>
    <message>
        <source>
(size as the trace records it: the requested bytes)</source>
        <translation>
（记录中的大小：请求的字节数）</translation>
    </message>
    <message>
        <source>
Allocated in %1</source>
        <translation>
分配位置 %1</translation>
    </message>
</context>
<context>
    <name>memviz::SegmentsModel</name>
    <message>
        <source> (expandable)</source>
        <translation>（可扩展）</translation>
    </message>
    <message>
        <source>%L1 bytes</source>
        <translation>%L1 字节</translation>
    </message>
    <message>
        <source>Freed by the program, waiting for other streams&apos; work before the allocator reuses it</source>
        <translation>程序已释放，等待其他流的工作完成后分配器才会复用</translation>
    </message>
    <message>
        <source>Reserved but not in any block: reusable by the allocator, still held from other programs</source>
        <translation>已保留但不属于任何块：分配器可以复用，但其他程序无法使用</translation>
    </message>
    <message>
        <source>The largest request this segment could serve without reserving more memory</source>
        <translation>这个段在不保留更多内存的情况下能满足的最大请求</translation>
    </message>
    <message>
        <source>Segment</source>
        <translation>段</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Pending free</source>
        <translation>等待释放</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Largest free</source>
        <translation>最大空闲</translation>
    </message>
    <message>
        <source>Blocks</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Stream</source>
        <translation>流</translation>
    </message>
</context>
<context>
    <name>memviz::SiteStacksModel</name>
    <message>
        <source>%1 calls, %2 at the peak, %3 leaked, %4 temporary</source>
        <translation>%1 次调用，峰值时 %2，泄漏 %3，临时 %4</translation>
    </message>
    <message>
        <source>%1 (inlined)</source>
        <translation>%1（内联）</translation>
    </message>
    <message>
        <source>Backtrace</source>
        <translation>调用栈</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>源码位置</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
</context>
<context>
    <name>memviz::SnapshotPanel</name>
    <message>
        <source>&amp;Allocations</source>
        <translation>分配(&amp;A)</translation>
    </message>
    <message>
        <source>Allocator &amp;State</source>
        <translation>分配器状态(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;napshot</source>
        <translation>快照(&amp;N)</translation>
    </message>
    <message>
        <source>OOM: asked %1</source>
        <translation>OOM：请求 %1</translation>
    </message>
    <message>
        <source>, %1 free</source>
        <translation>，空闲 %1</translation>
    </message>
    <message>
        <source>tabs below: the peak</source>
        <translation>下方标签页：峰值</translation>
    </message>
    <message>
        <source>tabs below: entry %L1</source>
        <translation>下方标签页：第 %L1 条记录</translation>
    </message>
    <message>
        <source>Active &amp;Memory</source>
        <translation>活动内存(&amp;M)</translation>
    </message>
</context>
<context>
    <name>memviz::SnapshotSession</name>
    <message>
        <source>entry %L1</source>
        <translation>第 %L1 条记录</translation>
    </message>
    <message>
        <source>%L1 entries</source>
        <translation>%L1 条记录</translation>
    </message>
    <message>
        <source>no trace recorded: the state the snapshot was taken in</source>
        <translation>没有记录：显示拍摄快照时的状态</translation>
    </message>
    <message>
        <source>before the first of %L1 entries</source>
        <translation>在 %L1 条记录中的第一条之前</translation>
    </message>
    <message>
        <source>after entry %L1 of %L2</source>
        <translation>第 %L1 条记录之后（共 %L2 条）</translation>
    </message>
    <message>
        <source> at %1</source>
        <translation>，于 %1</translation>
    </message>
    <message>
        <source> (the peak)</source>
        <translation>（峰值）</translation>
    </message>
    <message>
        <source> (the end)</source>
        <translation>（结束）</translation>
    </message>
    <message>
        <source>reading the allocations…</source>
        <translation>正在读取分配…</translation>
    </message>
</context>
<context>
    <name>memviz::SnapshotSummaryView</name>
    <message>
        <source>Trace entries</source>
        <translation>记录条数</translation>
    </message>
    <message>
        <source>Allocations / frees</source>
        <translation>分配 / 释放</translation>
    </message>
    <message>
        <source>Peak allocated</source>
        <translation>已分配峰值</translation>
    </message>
    <message>
        <source>%1 at %2 (after entry %L3)</source>
        <translation>%1，于 %2（第 %L3 条记录之后）</translation>
    </message>
    <message>
        <source>Allocated at the end</source>
        <translation>结束时已分配</translation>
    </message>
    <message>
        <source>Reserved (segments)</source>
        <translation>已保留（段）</translation>
    </message>
    <message>
        <source>%1 at the start, %2 at the end in %L3 segments</source>
        <translation>开始时 %1，结束时 %2，共 %L3 个段</translation>
    </message>
    <message>
        <source>Before the trace</source>
        <translation>记录开始之前</translation>
    </message>
    <message>
        <source>%1 in %L2 allocations were made before the trace began (%L3 of them freed during it): recording started after them, or its ring buffer (max_entries) dropped their alloc. Allocated bytes start from this baseline, so they never go negative.</source>
        <translation>有 %1（%L2 次分配）在记录开始之前分配（其中 %L3 次在记录期间被释放）：记录开始得比它们晚，或其环形缓冲区（max_entries）丢弃了这些分配。已分配字节以这个基线为起点，所以不会出现负数。</translation>
    </message>
    <message>
        <source>Trace</source>
        <translation>记录</translation>
    </message>
    <message>
        <source>none recorded: the numbers are the state the snapshot was taken in</source>
        <translation>没有记录：数字是拍摄快照时的状态</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#070&apos;&gt;&amp;#10004; consistent&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#070&apos;&gt;&amp;#10004; 一致&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#a00&apos;&gt;&amp;#10008; inconsistent&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#a00&apos;&gt;&amp;#10008; 不一致&lt;/span&gt;</translation>
    </message>
    <message>
        <source>: allocated bytes replayed to the end %1; the final segments&apos; allocated blocks %2 requested</source>
        <translation>：重放到结束时的已分配字节 %1；最终段中已分配块请求的大小 %2</translation>
    </message>
    <message>
        <source> + %1 pending free</source>
        <translation> + 等待释放 %1</translation>
    </message>
    <message>
        <source> (%1 as the allocator rounds them)</source>
        <translation>（分配器取整后为 %1）</translation>
    </message>
    <message>
        <source>; %L1 allocations alive in the trace are not in the segments</source>
        <translation>；记录中有 %L1 个存活的分配不在段中</translation>
    </message>
    <message>
        <source>; %L1 sizes differ from their block</source>
        <translation>；%L1 个大小与其块不同</translation>
    </message>
    <message>
        <source>Consistency</source>
        <translation>一致性</translation>
    </message>
    <message>
        <source>Entries per action</source>
        <translation>每种操作的记录数</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Out of memory&lt;/h3&gt;&lt;table&gt;</source>
        <translation>&lt;h3&gt;内存不足&lt;/h3&gt;&lt;table&gt;</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1，于 %2</translation>
    </message>
    <message>
        <source>asked for %1; the device had %2 free</source>
        <translation>请求了 %1；设备当时有 %2 空闲</translation>
    </message>
    <message>
        <source>(not recorded)</source>
        <translation>（未记录）</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Annotations&lt;/h3&gt;&lt;table&gt;</source>
        <translation>&lt;h3&gt;标注&lt;/h3&gt;&lt;table&gt;</translation>
    </message>
    <message>
        <source>(not placed: the trace has no times)</source>
        <translation>（未放置：记录中没有时间）</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Allocator settings&lt;/h3&gt;&lt;table&gt;</source>
        <translation>&lt;h3&gt;分配器设置&lt;/h3&gt;&lt;table&gt;</translation>
    </message>
    <message>
        <source>&lt;span style=&apos;color:#777&apos;&gt;(empty)&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;color:#777&apos;&gt;（空）&lt;/span&gt;</translation>
    </message>
    <message>
        <source>&lt;h3&gt;File&lt;/h3&gt;&lt;table&gt;</source>
        <translation>&lt;h3&gt;文件&lt;/h3&gt;&lt;table&gt;</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:#666&apos;&gt;Reading the snapshot…&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#666&apos;&gt;正在读取快照…&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:#a00&apos;&gt;Cannot read the snapshot: %1&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#a00&apos;&gt;无法读取快照：%1&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>memviz::SparseLesson</name>
    <message>
        <source>Rows:</source>
        <translation>行数：</translation>
    </message>
    <message>
        <source>Columns:</source>
        <translation>列数：</translation>
    </message>
    <message>
        <source>Values:</source>
        <translation>值：</translation>
    </message>
    <message>
        <source>Density (non-zeros, %):</source>
        <translation>密度（非零元素，%）：</translation>
    </message>
    <message>
        <source>Dense: &lt;b&gt;%1&lt;/b&gt;. At %2 density (%3 non-zeros): COO &lt;b&gt;%4&lt;/b&gt;, CSR &lt;b&gt;%5&lt;/b&gt;.&lt;br&gt;COO breaks even at &lt;b&gt;%6&lt;/b&gt; = %7 / (2 × 8 + %7); CSR at &lt;b&gt;%8&lt;/b&gt;.</source>
        <translation>稠密：&lt;b&gt;%1&lt;/b&gt;。在 %2 的密度下（%3 个非零元素）：COO &lt;b&gt;%4&lt;/b&gt;，CSR &lt;b&gt;%5&lt;/b&gt;。&lt;br&gt;COO 的临界密度为 &lt;b&gt;%6&lt;/b&gt; = %7 / (2 × 8 + %7)；CSR 为 &lt;b&gt;%8&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>density</source>
        <translation>密度</translation>
    </message>
    <message>
        <source>non-zeros</source>
        <translation>非零元素</translation>
    </message>
    <message>
        <source>dense bytes</source>
        <translation>稠密字节数</translation>
    </message>
    <message>
        <source>COO bytes</source>
        <translation>COO 字节数</translation>
    </message>
    <message>
        <source>CSR bytes</source>
        <translation>CSR 字节数</translation>
    </message>
    <message>
        <source>smallest</source>
        <translation>最小</translation>
    </message>
    <message>
        <source>CSR</source>
        <translation>CSR</translation>
    </message>
    <message>
        <source>COO</source>
        <translation>COO</translation>
    </message>
    <message>
        <source>dense</source>
        <translation>稠密</translation>
    </message>
    <message>
        <source>COO (indices + values)</source>
        <translation>COO（索引 + 值）</translation>
    </message>
    <message>
        <source>COO break-even %1</source>
        <translation>COO 临界密度 %1</translation>
    </message>
    <message>
        <source>density (% non-zero)</source>
        <translation>密度（非零元素的百分比）</translation>
    </message>
    <message>
        <source>memory (%1)</source>
        <translation>内存（%1）</translation>
    </message>
    <message>
        <source>Sparse tensors: COO vs dense</source>
        <translation>稀疏张量：COO 与稠密</translation>
    </message>
    <message>
        <source>A dense tensor stores every element, zero or not. &lt;code&gt;torch.sparse_coo_tensor&lt;/code&gt; stores only the non-zeros: for each one, an int64 index per dimension (%1 bytes each) and its value. A 2-D float32 non-zero therefore costs 2 × %1 + %2 = %3 bytes instead of %2, so COO only saves memory when fewer than %2 / %3 = %4 of the elements are non-zero: the &lt;b&gt;break-even density&lt;/b&gt;. CSR shares the row indices and breaks even later.</source>
        <translation>稠密张量存储每一个元素，无论是否为零。&lt;code&gt;torch.sparse_coo_tensor&lt;/code&gt; 只存储非零元素：每个非零元素在每个维度上有一个 int64 索引（每个 %1 字节），再加上它的值。因此一个二维 float32 非零元素要占 2 × %1 + %2 = %3 字节，而不是 %2 字节，所以只有当非零元素少于 %2 / %3 = %4 时，COO 才节省内存：这就是&lt;b&gt;临界密度&lt;/b&gt;。CSR 共享行索引，临界密度更高。</translation>
    </message>
    <message>
        <source>Sparse tensors</source>
        <translation>稀疏张量</translation>
    </message>
</context>
<context>
    <name>memviz::StackPane</name>
    <message>
        <source>Select an allocation to see where it was made.</source>
        <translation>选择一个分配，查看它是在哪里分配的。</translation>
    </message>
    <message>
        <source>&lt;p style=&apos;color:#666&apos;&gt;No stack was recorded (the allocation is older than the recording, or stacks were not recorded).&lt;/p&gt;</source>
        <translation>&lt;p style=&apos;color:#666&apos;&gt;没有记录调用栈（这次分配早于记录开始，或者没有记录调用栈）。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;Compile context:&lt;/b&gt;</source>
        <translation>&lt;b&gt;编译上下文：&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;User metadata:&lt;/b&gt;</source>
        <translation>&lt;b&gt;用户元数据：&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Forward-pass stack&lt;/b&gt; (where this tensor was created):&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;前向传播调用栈&lt;/b&gt;（这个张量被创建的位置）：&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>memviz::StackTreeModel</name>
    <message>
        <source>Frame</source>
        <translation>帧</translation>
    </message>
    <message>
        <source>Inclusive</source>
        <translation>包含子调用</translation>
    </message>
    <message>
        <source>Self</source>
        <translation>自身</translation>
    </message>
    <message>
        <source>Location</source>
        <translation>源码位置</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
</context>
<context>
    <name>memviz::StepTimelineChart</name>
    <message>
        <source>One step, op by op (%1 simulated ops; a short phase is drawn 10% wide)</source>
        <translation>一个训练步，逐个算子（模拟了 %1 个算子；较短的阶段按 10% 宽度绘制）</translation>
    </message>
    <message>
        <source>recorded (measured)</source>
        <translation>已记录（实测）</translation>
    </message>
    <message>
        <source>projected</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>peak %1 (%2)</source>
        <translation>峰值 %1（%2）</translation>
    </message>
    <message>
        <source>Recorded trace time (%1)</source>
        <translation>记录时间（%1）</translation>
    </message>
    <message>
        <source>limit %1</source>
        <translation>上限 %1</translation>
    </message>
    <message>
        <source>Live memory (%1)</source>
        <translation>存活内存（%1）</translation>
    </message>
</context>
<context>
    <name>memviz::TensorSizeLesson</name>
    <message>
        <source>Tensor:</source>
        <translation>张量：</translation>
    </message>
    <message>
        <source>Examples:</source>
        <translation>示例：</translation>
    </message>
    <message>
        <source>Pick an example…</source>
        <translation>选择一个示例…</translation>
    </message>
    <message>
        <source>torch.ones((112121, 1, 40, 40)): the article&apos;s tensor</source>
        <translation>torch.ones((112121, 1, 40, 40))：文章中的张量</translation>
    </message>
    <message>
        <source>torch.randn(100000, 3, 256, 256): a whole dataset</source>
        <translation>torch.randn(100000, 3, 256, 256)：整个数据集</translation>
    </message>
    <message>
        <source>1000 × 3 × 4096 × 4096 float32 images</source>
        <translation>1000 张 3 × 4096 × 4096 的 float32 图像</translation>
    </message>
    <message>
        <source>Element type:</source>
        <translation>元素类型：</translation>
    </message>
    <message>
        <source>%1, %2 B per element</source>
        <translation>%1，每个元素 %2 B</translation>
    </message>
    <message>
        <source>DataLoader batch size:</source>
        <translation>DataLoader 批大小：</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>bytes per element</source>
        <translation>每个元素的字节数</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>MB (10^6)</source>
        <translation>MB (10^6)</translation>
    </message>
    <message>
        <source>MiB (2^20)</source>
        <translation>MiB (2^20)</translation>
    </message>
    <message>
        <source>GB (10^9)</source>
        <translation>GB (10^9)</translation>
    </message>
    <message>
        <source>GiB (2^30)</source>
        <translation>GiB (2^30)</translation>
    </message>
    <message>
        <source>Type a shape such as &lt;code&gt;torch.ones((112121, 1, 40, 40))&lt;/code&gt; or &lt;code&gt;1000x3x224x224&lt;/code&gt;.</source>
        <translation>输入一个形状，例如 &lt;code&gt;torch.ones((112121, 1, 40, 40))&lt;/code&gt; 或 &lt;code&gt;1000x3x224x224&lt;/code&gt;。</translation>
    </message>
    <message>
        <source>This shape has more bytes than a 64-bit integer can count.</source>
        <translation>这个形状的字节数超出了 64 位整数的范围。</translation>
    </message>
    <message>
        <source>%1 elements × %2 bytes = &lt;b&gt;%3 bytes&lt;/b&gt; = &lt;b&gt;%4&lt;/b&gt; = &lt;b&gt;%5&lt;/b&gt;</source>
        <translation>%1 个元素 × %2 字节 = &lt;b&gt;%3 字节&lt;/b&gt; = &lt;b&gt;%4&lt;/b&gt; = &lt;b&gt;%5&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Loaded in batches of %1 (a DataLoader over the first dimension), one batch holds %2 = %3 instead.</source>
        <translation>如果以 %1 为一批加载（DataLoader 沿第一个维度分批），一个批次只占 %2 = %3。</translation>
    </message>
    <message>
        <source>%1 (1000^%2 bytes)</source>
        <translation>%1（1000^%2 字节）</translation>
    </message>
    <message>
        <source>%1 (1024^%2 bytes)</source>
        <translation>%1（1024^%2 字节）</translation>
    </message>
    <message>
        <source>element type</source>
        <translation>元素类型</translation>
    </message>
    <message>
        <source>Tensor size: bytes, MB and MiB</source>
        <translation>张量大小：字节、MB 与 MiB</translation>
    </message>
    <message>
        <source>A tensor&apos;s memory is its number of elements times the size of one element: float32 takes %1 bytes, float16 and bfloat16 take %2. The same byte count reads differently in &lt;b&gt;MB&lt;/b&gt; (10&lt;sup&gt;6&lt;/sup&gt; bytes, what articles and disk vendors write) and &lt;b&gt;MiB&lt;/b&gt; (2&lt;sup&gt;20&lt;/sup&gt; = %3 bytes, what PyTorch and nvidia-smi print): %4 bytes are %5 but %6. Type a shape or pick an example.</source>
        <translation>张量占用的内存等于元素个数乘以单个元素的大小：float32 占 %1 字节，float16 和 bfloat16 占 %2 字节。同样的字节数，用 &lt;b&gt;MB&lt;/b&gt;（10&lt;sup&gt;6&lt;/sup&gt; 字节，文章和硬盘厂商的写法）和 &lt;b&gt;MiB&lt;/b&gt;（2&lt;sup&gt;20&lt;/sup&gt; = %3 字节，PyTorch 和 nvidia-smi 打印的单位）读出来不一样：%4 字节是 %5，但只有 %6。输入一个形状，或选择一个示例。</translation>
    </message>
    <message>
        <source>the number printed (%1 and %2)</source>
        <translation>打印出的数字（%1 与 %2）</translation>
    </message>
    <message>
        <source>Open the model whose input has this shape, with the first dimension as the batch.</source>
        <translation>打开输入为这个形状的模型，并把第一个维度作为批大小。</translation>
    </message>
    <message>
        <source>No preset model takes inputs of this shape.</source>
        <translation>没有预置模型接受这个形状的输入。</translation>
    </message>
    <message>
        <source>Tensor size</source>
        <translation>张量大小</translation>
    </message>
</context>
<context>
    <name>memviz::TimelinePlot</name>
    <message>
        <source>Memory (%1)</source>
        <translation>内存（%1）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>At the %1 peak: %2</source>
        <translation>%1 峰值时：%2</translation>
    </message>
    <message>
        <source>At %1 (%2 at %3): %4</source>
        <translation>在%1（%3 时 %2）：%4</translation>
    </message>
    <message>
        <source>click to show)</source>
        <translation>点击显示）</translation>
    </message>
    <message>
        <source>%1 (off: %2× the %3; click to show)</source>
        <translation>%1（已隐藏：是 %3 的 %2 倍；点击显示）</translation>
    </message>
</context>
<context>
    <name>memviz::TraceAxis</name>
    <message>
        <source>Time since trace start</source>
        <translation>从记录开始经过的时间</translation>
    </message>
    <message>
        <source>Event number</source>
        <translation>事件编号</translation>
    </message>
    <message>
        <source>Instructions executed</source>
        <translation>已执行的指令数</translation>
    </message>
    <message>
        <source>Memory allocated and freed so far</source>
        <translation>到目前为止已分配和释放的内存</translation>
    </message>
    <message>
        <source>event %1</source>
        <translation>事件 %1</translation>
    </message>
    <message>
        <source>%1 instructions</source>
        <translation>%1 条指令</translation>
    </message>
    <message>
        <source>after %1 allocated and freed</source>
        <translation>已分配和释放 %1 之后</translation>
    </message>
</context>
<context>
    <name>memviz::ViewsLesson</name>
    <message>
        <source>A tensor is a view on a storage: a shape, strides (how far to step in memory for each dimension) and an offset. &lt;code&gt;view&lt;/code&gt;, &lt;code&gt;reshape&lt;/code&gt; of a contiguous tensor, &lt;code&gt;transpose&lt;/code&gt; and slicing only make new views: no bytes are copied, and the storage stays alive as long as any view of it does. &lt;code&gt;contiguous()&lt;/code&gt; copies when the strides are not row-major, &lt;code&gt;clone()&lt;/code&gt; always copies, and &lt;code&gt;reshape()&lt;/code&gt; copies when no view is possible.</source>
        <translation>张量是存储（storage）上的一个视图：一个形状、步长（每个维度在内存中要跨多远）和一个偏移量。&lt;code&gt;view&lt;/code&gt;、对连续张量的 &lt;code&gt;reshape&lt;/code&gt;、&lt;code&gt;transpose&lt;/code&gt; 和切片都只创建新的视图：不复制任何字节，只要还有任何一个视图存在，存储就会一直存活。步长不是行优先时 &lt;code&gt;contiguous()&lt;/code&gt; 会复制，&lt;code&gt;clone()&lt;/code&gt; 总是复制，无法创建视图时 &lt;code&gt;reshape()&lt;/code&gt; 会复制。</translation>
    </message>
    <message>
        <source>Program:</source>
        <translation>程序：</translation>
    </message>
    <message>
        <source>view, transpose, reshape and contiguous</source>
        <translation>view、transpose、reshape 和 contiguous</translation>
    </message>
    <message>
        <source>a small slice keeps the whole storage alive</source>
        <translation>一个小切片让整块存储一直存活</translation>
    </message>
    <message>
        <source>strided slices: every other row, half the columns</source>
        <translation>带步长的切片：隔行取、取一半的列</translation>
    </message>
    <message>
        <source>clone() vs view(): what del frees</source>
        <translation>clone() 与 view()：del 释放了什么</translation>
    </message>
    <message>
        <source>x is</source>
        <translation>x 为</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>statement</source>
        <translation>语句</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>strides</source>
        <translation>步长</translation>
    </message>
    <message>
        <source>contiguous</source>
        <translation>连续</translation>
    </message>
    <message>
        <source>storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>allocated</source>
        <translation>分配</translation>
    </message>
    <message>
        <source>freed</source>
        <translation>释放</translation>
    </message>
    <message>
        <source>alive after</source>
        <translation>执行后存活</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>shared (a view)</source>
        <translation>共享（视图）</translation>
    </message>
    <message>
        <source>new (a copy)</source>
        <translation>新建（副本）</translation>
    </message>
    <message>
        <source>x takes &lt;b&gt;%1&lt;/b&gt;. The statements after it copied &lt;b&gt;%2&lt;/b&gt;; at most &lt;b&gt;%3&lt;/b&gt; were alive at once, &lt;b&gt;%4&lt;/b&gt; at the end.</source>
        <translation>x 占 &lt;b&gt;%1&lt;/b&gt;。之后的语句复制了 &lt;b&gt;%2&lt;/b&gt;；同一时刻最多有 &lt;b&gt;%3&lt;/b&gt; 存活，结束时为 &lt;b&gt;%4&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>alive after the statement</source>
        <translation>语句执行后存活</translation>
    </message>
    <message>
        <source>allocated by it</source>
        <translation>该语句分配</translation>
    </message>
    <message>
        <source>statement #</source>
        <translation>语句编号</translation>
    </message>
    <message>
        <source>memory (%1)</source>
        <translation>内存（%1）</translation>
    </message>
    <message>
        <source>Views vs copies</source>
        <translation>视图与副本</translation>
    </message>
</context>
<context>
    <name>memviz::WhatIfPanel</name>
    <message>
        <source>Model and knobs</source>
        <translation>模型与参数</translation>
    </message>
    <message>
        <source>Open spec…</source>
        <translation>打开模型描述…</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Batch size, logarithmic: every %1 steps double it</source>
        <translation>批大小（对数刻度）：每 %1 步翻一倍</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>int8: a quantized model, inference only</source>
        <translation>int8：量化模型，仅用于推理</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Mixed precision (autocast)</source>
        <translation>混合精度（autocast）</translation>
    </message>
    <message>
        <source>history </source>
        <translation>历史长度 </translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>Inference only (no_grad)</source>
        <translation>仅推理（no_grad）</translation>
    </message>
    <message>
        <source>CPU (64-byte aligned, no cache)</source>
        <translation>CPU（64 字节对齐，无缓存）</translation>
    </message>
    <message>
        <source>CUDA (caching allocator)</source>
        <translation>CUDA（缓存分配器）</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Add a CUDA context (%1)</source>
        <translation>加上 CUDA 上下文（%1）</translation>
    </message>
    <message>
        <source>Memory limit</source>
        <translation>内存上限</translation>
    </message>
    <message>
        <source>Calibrate on the open trace</source>
        <translation>在打开的记录上校准</translation>
    </message>
    <message>
        <source>Open a trace, set the knobs it was recorded with, then calibrate.</source>
        <translation>打开一个记录，设置它记录时使用的参数，然后校准。</translation>
    </message>
    <message>
        <source>Calibrate</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Open model spec</source>
        <translation>打开模型描述</translation>
    </message>
    <message>
        <source>Model specs (*.json);;All files (*)</source>
        <translation>模型描述 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>%1 (spec)</source>
        <translation>%1（描述文件）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>sqrt: K = %1 of %2 layers</source>
        <translation>sqrt：K = %1（共 %2 层）</translation>
    </message>
    <message>
        <source>K = %1 segments</source>
        <translation>K = %1 段</translation>
    </message>
    <message>
        <source>Peak %1 (%2 phase)</source>
        <translation>峰值 %1（%2阶段）</translation>
    </message>
    <message>
        <source>no memory limit chosen</source>
        <translation>未选择内存上限</translation>
    </message>
    <message>
        <source>fits in %1 (%2 to spare)</source>
        <translation>能放进 %1（还剩 %2）</translation>
    </message>
    <message>
        <source>does not fit in %1: over by %2</source>
        <translation>放不进 %1：超出 %2</translation>
    </message>
    <message>
        <source>Not even batch 1 fits in %1.</source>
        <translation>连批大小 1 都放不进 %1。</translation>
    </message>
    <message>
        <source>Largest batch that fits in %1: %2</source>
        <translation>能放进 %1 的最大批大小：%2</translation>
    </message>
    <message>
        <source>modelled</source>
        <translation>模型计算</translation>
    </message>
    <message>
        <source>recorded</source>
        <translation>已记录</translation>
    </message>
    <message>
        <source>projected</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Measured: %1 peaked at %2 on %3%4. Modelled at the recorded settings: %5 (%6% of the recording). Projected under the current knobs: %7 = recorded × the model&apos;s ratio %8 (per category where the trace has them).</source>
        <translation>实测：%1 在 %3 上的峰值为 %2%4。按记录时的设置建模：%5（实测值的 %6%）。按当前参数预测：%7 = 实测值 × 模型比例 %8（记录中有类别时按类别计算）。</translation>
    </message>
    <message>
        <source> (no categories in this format)</source>
        <translation>（此格式没有类别）</translation>
    </message>
    <message>
        <source>%1: saves %2</source>
        <translation>%1：节省 %2</translation>
    </message>
    <message>
        <source>%1: costs %2 more</source>
        <translation>%1：多用 %2</translation>
    </message>
    <message>
        <source>What one change would do — %1</source>
        <translation>单项改动的效果 — %1</translation>
    </message>
    <message>
        <source>Cannot calibrate: %1</source>
        <translation>无法校准：%1</translation>
    </message>
    <message>
        <source>Cannot save: %1</source>
        <translation>无法保存：%1</translation>
    </message>
    <message>
        <source>Compare this estimate</source>
        <translation>比较此估算</translation>
    </message>
    <message>
        <source>Save as Trace…</source>
        <translation>另存为记录…</translation>
    </message>
    <message>
        <source>Keep this estimate as a trace in a store, to compare it (File › Compare With…) with a recording or another estimate, category by category</source>
        <translation>把此估算作为记录保存到存储中，以便与实际记录或另一个估算按类别逐项比较（文件 › 与其他记录比较…）</translation>
    </message>
    <message>
        <source>Save the estimate into a store</source>
        <translation>将估算保存到存储</translation>
    </message>
    <message>
        <source>memviz store (*.memviz)</source>
        <translation>memviz 存储文件 (*.memviz)</translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation>正在保存…</translation>
    </message>
    <message>
        <source>Saved as trace %1 of %2; File › Compare With… compares it.</source>
        <translation>已保存为 %2 中的记录 %1；用“文件 › 与其他记录比较…”即可比较。</translation>
    </message>
</context>
</TS>
