// SPDX-License-Identifier: MIT
#pragma once
// Table columns sized to their contents, with sensible minimums: numbers are never cut
// ("316.... MiB"), cells do not wrap, long text (paths, frames) is elided in the middle, one
// flexible column (the name) takes the width left over so no half of the table stays empty,
// and a long text column cannot squeeze the name down to a few pixels.
class QTableView;

namespace memviz::columns {

// Sizes the columns now (cost bounded by the header's resize precision, not the row count).
void fitToContents(QTableView* view, int flexibleColumn);
// Sizes them now and again whenever the rows change or the view is resized.
void keepFitted(QTableView* view, int flexibleColumn);

} // namespace memviz::columns
