#include <QtTest>
class TestLiveprobe : public QObject {
    Q_OBJECT
};
QTEST_GUILESS_MAIN(TestLiveprobe)
#include "tst_live_probe.moc"
