// SPDX-License-Identifier: MIT
#include "widgets/snapshot/DeviceChooser.h"

#include "widgets/snapshot/SnapshotSession.h"

namespace memviz {

DeviceChooser::DeviceChooser(SnapshotSession* session, QWidget* parent) : QComboBox(parent), session_(session) {
    setToolTip(tr("The device whose allocations and allocator state the tabs show"));
    connect(this, qOverload<int>(&QComboBox::activated), this, [this](int i) { session_->setDevice(itemData(i).toInt()); });
    sync();
}

void DeviceChooser::sync() {
    clear();
    for (const SnapshotDeviceStats& d : session_->overview().devices) addItem(QString::fromStdString(d.name), d.device);
    setCurrentIndex(findData(session_->device()));
    setVisible(count() > 1);
}

} // namespace memviz
