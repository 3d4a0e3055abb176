// SPDX-License-Identifier: MIT
#pragma once
// A window for one live recording (a LiveView), owning its session. Closing it while the
// recording runs asks first, then stops and saves the recording.
#include <QWidget>
#include <memory>

namespace memviz {

class LiveSession;
class LiveView;

class LiveWindow : public QWidget {
    Q_OBJECT
public:
    // Takes the session (not yet started) and starts it.
    LiveWindow(LiveSession* session, const QString& title, QWidget* parent = nullptr);
    ~LiveWindow() override;

    LiveSession* session() const { return session_; }
    LiveView* view() const { return view_; }
    // Closing without the question (tests, quitting the app).
    void setAskBeforeStopping(bool ask) { ask_ = ask; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    LiveSession* session_;
    LiveView* view_;
    bool ask_ = true;
};

} // namespace memviz
