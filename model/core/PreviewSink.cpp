// SPDX-License-Identifier: MIT
#include "core/PreviewSink.h"

namespace memviz {

namespace {
thread_local PreviewSink* currentSink = nullptr;
}

PreviewSink* previewSink() { return currentSink; }

ScopedPreviewSink::ScopedPreviewSink(PreviewSink* sink) : previous_(currentSink) { currentSink = sink; }

ScopedPreviewSink::~ScopedPreviewSink() { currentSink = previous_; }

} // namespace memviz
