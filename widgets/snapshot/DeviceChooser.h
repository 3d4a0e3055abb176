// SPDX-License-Identifier: MIT
#pragma once
// The device a snapshot's tabs show (cuda:0, cuda:1, ...), one combo box per tab that needs it,
// all bound to the one SnapshotSession: choosing in one switches every tab. Hidden when the
// trace has a single device.
#include <QComboBox>

namespace memviz {

class SnapshotSession;

class DeviceChooser : public QComboBox {
    Q_OBJECT
public:
    explicit DeviceChooser(SnapshotSession* session, QWidget* parent = nullptr);
    // Fills the list from the session's devices and shows the session's device; call on
    // SnapshotSession::reloaded (the chooser does so itself, but a view that refreshes on the
    // same signal calls it first so that its own text and the chooser agree).
    void sync();

private:
    SnapshotSession* session_;
};

} // namespace memviz
