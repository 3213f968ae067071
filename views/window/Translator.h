// The console's translations: Meterdesk's own (translations/*.ts, built into
// the program) and Qt's, in the language of the system or the one chosen in
// Preferences. Our classes live in namespaces that lupdate records without,
// so lookups try the context without its namespace too.
#pragma once

#include <QLocale>
#include <QTranslator>

namespace md::views {

class Translator final : public QTranslator
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(Translator)

public:
    explicit Translator(QObject *parent = nullptr);

    // Installs Meterdesk's and Qt's translations for `locale`; false when
    // Meterdesk has none for it, and English (the source language, with its
    // plural forms) is used. Numbers and dates (QLocale()) then follow the
    // language the text is in, whatever the system's locale (LANG=C).
    static bool install(const QLocale &locale);
    // The locale of the language chosen in settings: the system's, or the
    // chosen language in the system's territory (see localeFor).
    static QLocale chosenLocale();
    // The locale of "system", "en" or "de", as chosenLocale() makes it.
    static QLocale localeOf(const QString &language);
    // `language` as written in `territory` (German in Austria) where Qt has
    // that pair, else as in the language's main one (German: Germany).
    static QLocale localeFor(QLocale::Language language, QLocale::Territory territory);
    // "system", "en" or "de": the choice kept in settings.
    static QString chosenLanguage();
    static void setChosenLanguage(const QString &language);
    static QStringList availableLanguages();

    QString translate(const char *context, const char *sourceText,
                      const char *disambiguation = nullptr, int n = -1) const override;
};

} // namespace md::views
