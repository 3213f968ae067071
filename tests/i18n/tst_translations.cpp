// Translations are complete: no unfinished string in any .ts, the .ts files
// hold every string the sources have, and the built-in German is used, for
// dates and numbers too.
#include "models/common/AmountFormat.h"
#include "views/window/Translator.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace {

QStringList tsFiles()
{
    QStringList files;
    for (const QString &name :
         QDir(QStringLiteral(MD_SOURCE_DIR "/translations")).entryList({u"*.ts"_s}))
        files.append(QStringLiteral(MD_SOURCE_DIR "/translations/") + name);
    return files;
}

// Messages whose translation is unfinished or empty, as "context: source".
QStringList unfinished(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {u"cannot read "_s + path};
    QStringList open;
    QXmlStreamReader xml(&file);
    QString context;
    QString source;
    while (!xml.atEnd()) {
        if (!xml.readNextStartElement())
            continue;
        if (xml.name() == "name"_L1) {
            context = xml.readElementText();
        } else if (xml.name() == "source"_L1) {
            source = xml.readElementText();
        } else if (xml.name() == "translation"_L1) {
            const bool marked = xml.attributes().value(u"type"_s) == "unfinished"_L1;
            const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            if (marked || text.trimmed().isEmpty())
                open.append(context + u": "_s + source);
        }
    }
    return open;
}

} // namespace

class TestTranslations final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyStringIsTranslated()
    {
        QVERIFY(!tsFiles().isEmpty());
        for (const QString &ts : tsFiles()) {
            const QStringList open = unfinished(ts);
            QVERIFY2(open.isEmpty(),
                     qPrintable(ts + u" has unfinished strings:\n"_s + open.join(u'\n')));
        }
    }

    void theFilesHoldEveryStringOfTheSources()
    {
        QTemporaryDir dir;
        for (const QString &ts : tsFiles()) {
            const QString copy = dir.filePath(QFileInfo(ts).fileName());
            QVERIFY(QFile::copy(ts, copy));
            QProcess lupdate;
            lupdate.setWorkingDirectory(QStringLiteral(MD_SOURCE_DIR));
            QStringList arguments{u"-silent"_s, u"-no-obsolete"_s, u"-locations"_s, u"none"_s,
                                  u"views"_s,   u"models"_s,       u"app"_s};
            if (ts.endsWith("_en.ts"_L1)) // English, the source language: plural forms only
                arguments << u"-pluralonly"_s;
            lupdate.start(QStringLiteral(MD_LUPDATE), arguments << u"-ts"_s << copy);
            QVERIFY(lupdate.waitForFinished(60000));
            QCOMPARE(lupdate.exitCode(), 0);
            const QStringList open = unfinished(copy);
            QVERIFY2(open.isEmpty(),
                     qPrintable(u"run scripts/update-translations.sh and translate:\n"_s +
                                open.join(u'\n')));
        }
    }

    // Before German: the translator installed last answers first.
    void englishPluralsReadRight()
    {
        // Also where the system has no language (C locale): English then.
        QVERIFY(!md::views::Translator::install(QLocale::c()));
        QCOMPARE(QCoreApplication::translate("md::views::BalancesPage", "%Ln row(s)", nullptr, 1),
                 u"1 row"_s);
        QCOMPARE(
            QCoreApplication::translate("md::views::BalancesPage", "%Ln row(s)", nullptr, 2000),
            u"2,000 rows"_s);
        QCOMPARE(QCoreApplication::translate("md::views::UsagePage", "%Ln events", nullptr, 1),
                 u"1 event"_s);
        QCOMPARE(QLocale().language(), QLocale::English); // dates in the text's language
    }

    void germanIsBuiltIn()
    {
        QVERIFY(md::views::Translator::install(QLocale(QLocale::German, QLocale::Germany)));
        // Contexts carry our namespaces at run time; the translator finds them all the same.
        QCOMPARE(QCoreApplication::translate("md::views::MainWindow", "&File"), u"&Datei"_s);
        QCOMPARE(
            QCoreApplication::translate("md::views::BalancesPage", "%Ln row(s)", nullptr, 3000),
            u"3.000 Zeilen"_s);
    }

    // German chosen on a system in C (LANG=C): the models' dates and numbers
    // are German too, not "nächste Wednesday, 14 October".
    void germanDatesAndNumbers()
    {
        QLocale::setDefault(QLocale::c()); // QLocale() with LANG=C
        QVERIFY(md::views::Translator::install(QLocale(QLocale::German, QLocale::Germany)));
        const QDateTime noon(QDate(2026, 10, 14), QTime(12, 0), Qt::UTC);
        const QString text = md::models::formatTimestamp(noon.toMSecsSinceEpoch());
        const QDate shown = noon.toLocalTime().date(); // the day in this machine's time zone
        for (const auto &[language, expected] :
             {std::pair{QLocale::German, true}, std::pair{QLocale::English, false}}) {
            const QLocale names(language);
            QVERIFY2(text.contains(names.dayName(shown.dayOfWeek())) == expected, qPrintable(text));
            QVERIFY2(text.contains(names.monthName(shown.month())) == expected, qPrintable(text));
        }
        QCOMPARE(md::models::formatAmount(*md::api::Decimal::parse(QByteArrayView("1234.5"))),
                 u"1.234,50"_s);
    }

    // The chosen language keeps the system's territory where it is spoken there.
    void localesKeepTheSystemsTerritory()
    {
        using md::views::Translator;
        QCOMPARE(Translator::localeFor(QLocale::German, QLocale::Austria).name(), u"de_AT"_s);
        QCOMPARE(Translator::localeFor(QLocale::German, QLocale::UnitedStates).name(), u"de_DE"_s);
        QCOMPARE(Translator::localeFor(QLocale::English, QLocale::AnyTerritory).name(), u"en_US"_s);
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
