// SPDX-License-Identifier: MIT
#include "Language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>
#include <memory>

namespace memviz::language {

namespace {

const char* const kSettingsKey = "language";

struct Installed {
    QString code = QStringLiteral("en");
    std::unique_ptr<QTranslator> app, qt;
};

Installed& installed() {
    static Installed i;
    return i;
}

} // namespace

QStringList available() { return {QStringLiteral("en"), QStringLiteral("zh_CN")}; }

QString nativeName(const QString& code) {
    if (code == QLatin1String("zh_CN")) return QStringLiteral("简体中文");
    return QStringLiteral("English");
}

QString saved() { return QSettings().value(kSettingsKey).toString(); }

void save(const QString& code) {
    QSettings settings;
    if (code.isEmpty()) settings.remove(kSettingsKey);
    else settings.setValue(kSettingsKey, code);
}

QString resolve(const QString& choice) {
    if (available().contains(choice)) return choice;
    // Any Chinese locale gets the Simplified Chinese texts: the closest we have.
    const QLocale system;
    return system.language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

bool apply(const QString& code) {
    Installed& i = installed();
    for (auto* t : {i.app.get(), i.qt.get()})
        if (t) QCoreApplication::removeTranslator(t);
    i.app.reset();
    i.qt.reset();
    i.code = QStringLiteral("en");
    if (code == QLatin1String("en") || code.isEmpty()) return true;
    auto app = std::make_unique<QTranslator>();
    if (!app->load(QStringLiteral(":/i18n/memviz_%1.qm").arg(code))) return false;
    QCoreApplication::installTranslator(app.get());
    i.app = std::move(app);
    auto qt = std::make_unique<QTranslator>();
    if (qt->load(QStringLiteral("qtbase_%1").arg(code), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        i.qt = std::move(qt);
    }
    i.code = code;
    return true;
}

QString current() { return installed().code; }

} // namespace memviz::language
