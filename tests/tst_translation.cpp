// SPDX-License-Identifier: MIT
// Simplified Chinese: the translation is complete (every message, placeholders intact, and every
// tr() string of the source in it, as lupdate sees them), loading
// zh_CN translates the main menus, the lessons list and the OOM decoder, switching the
// language rebuilds the window, and a CJK font is there to draw it.
#include <QApplication>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QListWidget>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QXmlStreamReader>
#include <QtTest>

#include "Language.h"
#include "MainWindow.h"
#include "TestSupport.h"
#include "WindowHost.h"
#include "widgets/learn/LearnWindow.h"
#include "widgets/learn/Lesson.h"
#include "widgets/learn/OomDecoderPage.h"
#include "words/OomReport.h"

using namespace memviz;

namespace {

bool hasCjk(const QString& s) {
    for (QChar c : s)
        if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) return true;
    return false;
}

const QString kTsFile = QStringLiteral(MEMVIZ_SOURCE_DIR "/resources/translations/memviz_zh_CN.ts");

// The messages of a .ts file, "context: source" (plus " [comment]"), each with whether its
// translation is finished.
QHash<QString, bool> tsMessages(const QString& path) {
    QHash<QString, bool> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return out;
    QXmlStreamReader xml(&f);
    QString context, key;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        if (xml.name() == QLatin1String("name")) context = xml.readElementText();
        else if (xml.name() == QLatin1String("source")) key = context + ": " + xml.readElementText();
        else if (xml.name() == QLatin1String("comment")) key += " [" + xml.readElementText() + "]";
        else if (xml.name() == QLatin1String("translation"))
            out.insert(key, xml.attributes().value("type") != QLatin1String("unfinished") && !xml.readElementText().isEmpty());
    }
    return xml.hasError() ? QHash<QString, bool>{} : out;
}

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList menuTitles(QMainWindow& w) {
    QStringList out;
    for (QAction* a : w.menuBar()->actions()) out << a->text();
    return out;
}

} // namespace

class TestTranslation : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void tsFileIsComplete();
    void tsFileHasEverySourceString();
    void mainMenusAreTranslated();
    void lessonsListIsTranslated();
    void oomDecoderIsTranslated();
    void switchingRebuildsTheWindow();
    void followsTheSystemLocale();
    void cjkFontIsInstalled();
};

void TestTranslation::initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("memviz-tests");
    Q_INIT_RESOURCE(memviz);
}

void TestTranslation::cleanup() {
    language::apply("en");
    QLocale::setDefault(QLocale::c());
}

void TestTranslation::tsFileIsComplete() {
    QFile f(kTsFile);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&f);
    int messages = 0;
    QString source;
    const QRegularExpression marker(QStringLiteral("%L?\\d+"));
    const auto markers = [&](const QString& s) {
        QStringList out;
        for (auto it = marker.globalMatch(s); it.hasNext();) out << it.next().captured();
        out.sort();
        return out;
    };
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) continue;
        if (xml.name() == QLatin1String("source")) source = xml.readElementText();
        if (xml.name() == QLatin1String("translation")) {
            ++messages;
            QVERIFY2(xml.attributes().value("type") != QLatin1String("unfinished"), qPrintable("unfinished: " + source));
            const QString translation = xml.readElementText();
            QVERIFY2(!translation.isEmpty(), qPrintable("empty: " + source));
            QCOMPARE(markers(translation), markers(source));
            // Menu accelerators survive (&F), HTML entities aside.
            const auto amp = [](QString s) { return s.remove(QRegularExpression("&[a-z]+;|&#\\d+;")).count('&'); };
            QCOMPARE(amp(translation), amp(source));
        }
    }
    QVERIFY(!xml.hasError());
    QVERIFY(messages > 600);
}

// lupdate, run as `ninja memviz_app_lupdate` runs it (the same project .json and options) but on
// a copy of the .ts in a temporary folder, adds every tr() string the .ts lacks as unfinished
// and drops (-no-obsolete) every entry whose string left the source.
void TestTranslation::tsFileHasEverySourceString() {
#ifndef MEMVIZ_LUPDATE
    QFAIL("built without MEMVIZ_LUPDATE: tests/CMakeLists.txt found no memviz_lupdate_project target");
#else
    const QString lupdate = QStringLiteral(MEMVIZ_LUPDATE);
    if (!QFileInfo(lupdate).isExecutable())
        MEMVIZ_SKIP_OR_FAIL("lupdate is not installed (packaging/install-deps.sh installs qt6-l10n-tools)");
    QVERIFY2(QFileInfo::exists(MEMVIZ_LUPDATE_PROJECT), MEMVIZ_LUPDATE_PROJECT);
    const QByteArray before = fileBytes(kTsFile);
    QVERIFY(!before.isEmpty());
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString copy = dir.filePath("memviz_zh_CN.ts");
    QVERIFY(QFile::copy(kTsFile, copy));
    QVERIFY(QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner));
    QProcess run;
    run.setProcessChannelMode(QProcess::MergedChannels);
    run.start(lupdate, QStringList{"-project", MEMVIZ_LUPDATE_PROJECT}
                           + QString(MEMVIZ_LUPDATE_OPTIONS).split(' ', Qt::SkipEmptyParts) + QStringList{"-ts", copy});
    QVERIFY(run.waitForFinished(120000));
    const QString log = QString::fromUtf8(run.readAll());
    QVERIFY2(run.exitStatus() == QProcess::NormalExit && run.exitCode() == 0, qPrintable(log));
    QCOMPARE(fileBytes(kTsFile), before); // the source tree is left alone

    const QHash<QString, bool> original = tsMessages(kTsFile);
    const QHash<QString, bool> updated = tsMessages(copy);
    QVERIFY2(updated.size() > 600, qPrintable(log)); // lupdate did read the sources
    QStringList missing, stale;
    for (auto it = updated.begin(); it != updated.end(); ++it)
        if (!it.value()) missing << it.key();
    for (auto it = original.begin(); it != original.end(); ++it)
        if (!updated.contains(it.key())) stale << it.key();
    missing.sort();
    stale.sort();
    QVERIFY2(missing.isEmpty(), qPrintable(QString("%1 source strings are untranslated or missing from the .ts (run `ninja -C build "
                                                   "memviz_app_lupdate` and translate them), the first: %2")
                                               .arg(missing.size())
                                               .arg(missing.mid(0, 5).join(" | "))));
    QVERIFY2(stale.isEmpty(), qPrintable(QString("%1 .ts entries are no longer in the source (run `ninja -C build memviz_app_lupdate`): %2")
                                             .arg(stale.size())
                                             .arg(stale.mid(0, 5).join(" | "))));
#endif
}

void TestTranslation::mainMenusAreTranslated() {
    QVERIFY(language::apply("zh_CN"));
    QCOMPARE(language::current(), QStringLiteral("zh_CN"));
    MainWindow w;
    const QStringList titles = menuTitles(w);
    QCOMPARE(titles, (QStringList{"文件(&F)", "记录(&R)", "视图(&V)", "学习(&L)", "帮助(&H)"}));
    QMenu* file = w.menuBar()->actions().first()->menu();
    QCOMPARE(file->actions().first()->text(), QStringLiteral("打开(&O)…"));
    language::apply("en");
    MainWindow english;
    QCOMPARE(menuTitles(english), (QStringList{"&File", "&Record", "&View", "&Learn", "&Help"}));
}

void TestTranslation::lessonsListIsTranslated() {
    QVERIFY(language::apply("zh_CN"));
    LearnWindow w;
    QCOMPARE(w.lessonList()->item(0)->text(), QStringLiteral("1. 张量大小"));
    for (int i = 0; i < w.lessonList()->count(); ++i)
        QVERIFY2(hasCjk(w.lessonList()->item(i)->text()), qPrintable(w.lessonList()->item(i)->text()));
    for (Lesson* l : w.lessons()) QVERIFY2(hasCjk(l->title()), qPrintable(l->title()));
    for (QAction* a : w.menuBar()->actions()) QVERIFY(hasCjk(a->text()));
}

void TestTranslation::oomDecoderIsTranslated() {
    QVERIFY(language::apply("zh_CN"));
    const OomReport r = OomReportBuilder::build(OomDecoderPage::exampleMessages().at(3));
    QCOMPARE(r.title, QStringLiteral("CUDA 显存不足（PyTorch 1.x 至 2.0 的报错格式）"));
    QCOMPARE(r.facts.at(1).label, QStringLiteral("请求大小"));
    for (const QString& p : r.explanation) QVERIFY2(hasCjk(p), qPrintable(p));
    LearnWindow w;
    OomDecoderPage* page = w.oomDecoder();
    page->setMessage(OomDecoderPage::exampleMessages().at(1));
    QVERIFY(page->answer()->toPlainText().contains(QStringLiteral("CPU 内存不足")));
    QVERIFY(page->answer()->toPlainText().contains(QStringLiteral("78,643,200,000 字节")));
    QCOMPARE(page->title(), QStringLiteral("OOM 报错解读：内存不足的报错在说什么"));
    // Unrecognized text gets a Chinese answer too.
    QVERIFY(hasCjk(OomReportBuilder::build("hello").explanation.first()));
}

void TestTranslation::switchingRebuildsTheWindow() {
    WindowHost host;
    QCOMPARE(menuTitles(*host.window()).first(), QStringLiteral("&File"));
    host.window()->openLearn("sparse");
    QVERIFY(language::apply("zh_CN"));
    host.rebuild();
    QCOMPARE(menuTitles(*host.window()).first(), QStringLiteral("文件(&F)"));
    QVERIFY(host.window()->learnWindow()->isVisible());
    QCOMPARE(host.window()->learnWindow()->currentLesson()->id(), QStringLiteral("sparse"));
    QCOMPARE(host.window()->learnWindow()->currentLesson()->shortTitle(), QStringLiteral("稀疏张量"));
}

void TestTranslation::followsTheSystemLocale() {
    QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    QCOMPARE(language::resolve(QString()), QStringLiteral("zh_CN"));
    QCOMPARE(language::resolve("en"), QStringLiteral("en")); // a saved choice wins
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    QCOMPARE(language::resolve(QString()), QStringLiteral("en"));
    QVERIFY(!language::apply("xx_XX"));
    QVERIFY(language::available().contains("zh_CN"));
}

void TestTranslation::cjkFontIsInstalled() {
    const QStringList families = QFontDatabase::families(QFontDatabase::SimplifiedChinese);
    if (families.isEmpty())
        MEMVIZ_SKIP_OR_FAIL("no Simplified Chinese font installed (packaging/install-deps.sh installs fonts-noto-cjk)");
    bool drawn = false;
    for (const QString& family : families) drawn |= QFontMetrics(QFont(family)).inFont(QChar(0x5B66)); // 学
    QVERIFY(drawn);
    // The default UI font falls back to a CJK font for these characters (fontconfig).
    QVERIFY(QFontMetrics(QApplication::font()).horizontalAdvance(QStringLiteral("学习")) > 0);
}

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
