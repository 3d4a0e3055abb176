#include <QtTest>
class TestLiveproc : public QObject {
    Q_OBJECT
};
QTEST_GUILESS_MAIN(TestLiveproc)
#include "tst_live_proc.moc"
