#include "views/window/Translator.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QSettings>

namespace md::views {

using namespace Qt::StringLiterals;

Translator::Translator(QObject *parent)
    : QTranslator(parent)
{}

QString Translator::translate(const char *context, const char *sourceText,
                              const char *disambiguation, int n) const
{
    const QString found = QTranslator::translate(context, sourceText, disambiguation, n);
    if (!found.isEmpty() || !context)
        return found;
    const QByteArray qualified(context);
    const qsizetype separator = qualified.lastIndexOf("::");
    if (separator < 0)
        return found;
    return QTranslator::translate(qualified.mid(separator + 2).constData(), sourceText,
                                  disambiguation, n);
}

bool Translator::install(const QLocale &locale)
{
    auto *ours = new Translator(QCoreApplication::instance());
    const bool translated = ours->load(locale, u"meterdesk"_s, u"_"_s, u":/i18n"_s);
    // A language we have no file for: English, whose plural forms
    // ("1 row", "2 rows") still come from a file.
    QLocale::Language language = QLocale::English;
    if (translated || ours->load(u"meterdesk_en"_s, u":/i18n"_s)) {
        language = QLocale(ours->language()).language();
        QCoreApplication::installTranslator(ours);
    } else {
        delete ours;
    }
    // Numbers and dates in the language of the text. Not the system locale
    // itself: its dates may be in another language (LANG=C, or LC_TIME).
    QLocale::setDefault(localeFor(language, locale.territory()));
    if (!translated)
        return false;
    auto *qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, u"qtbase"_s, u"_"_s, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return true;
}

QLocale Translator::chosenLocale()
{
    return localeOf(chosenLanguage());
}

QLocale Translator::localeOf(const QString &language)
{
    if (language == "system"_L1)
        return QLocale::system();
    return localeFor(QLocale::codeToLanguage(language), QLocale::system().territory());
}

QLocale Translator::localeFor(QLocale::Language language, QLocale::Territory territory)
{
    const QLocale there(language, territory);
    return there.territory() == territory ? there : QLocale(language);
}

QString Translator::chosenLanguage()
{
    return QSettings().value(u"ui/language"_s, u"system"_s).toString();
}

void Translator::setChosenLanguage(const QString &language)
{
    QSettings().setValue(u"ui/language"_s, language);
}

QStringList Translator::availableLanguages()
{
    return {u"system"_s, u"en"_s, u"de"_s};
}

} // namespace md::views
