// meterdesk: the desktop console.
#include "services/api/Version.h"
#include "views/window/Console.h"
#include "views/window/Translator.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QStandardPaths>

#include <cstdio>
#include <optional>

using namespace Qt::StringLiterals;

namespace {

// Exit codes: 0 the window was closed, 2 the command line is wrong.
constexpr int ExitUsage = 2;

struct Options
{
    QCommandLineOption database{
        u"database"_s,
        QCoreApplication::translate("main", "SQLite file or postgresql:// URL of the workspace."),
        u"D"_s};
    QCommandLineOption server{
        u"server"_s,
        QCoreApplication::translate("main",
                                    "Base URL of a remote billing server (asks for the API key)."),
        u"URL"_s};
    QCommandLineOption demo{
        u"demo"_s,
        QCoreApplication::translate("main", "Load the demo workspace if the database is empty.")};
    QCommandLineOption catalogue{
        u"catalogue"_s,
        QCoreApplication::translate("main",
                                    "A models.dev price catalogue file for embedded workspaces."),
        u"FILE"_s};
    QCommandLineOption language{
        u"lang"_s,
        QCoreApplication::translate("main", "The language of this run: system, en or de "
                                            "(Edit > Preferences keeps one for every run)."),
        u"LANG"_s};
};

// --lang, read before the parser so that the parser's own messages are in
// that language too.
std::optional<QString> languageAsked(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QString argument = QString::fromLocal8Bit(argv[i]);
        if (argument == "--lang"_L1 && i + 1 < argc)
            return QString::fromLocal8Bit(argv[i + 1]);
        if (argument.startsWith("--lang="_L1))
            return argument.mid(7);
    }
    return std::nullopt;
}

// Names, version and language (--lang, else Preferences), for --help as for
// the console; false, with the system's language, when --lang names none
// of ours.
bool describe(const std::optional<QString> &language)
{
    QCoreApplication::setOrganizationName(u"Meterdesk"_s);
    QCoreApplication::setApplicationName(u"meterdesk"_s);
    QCoreApplication::setApplicationVersion(md::api::meterdeskVersion());
    using md::views::Translator;
    const bool known = !language || Translator::availableLanguages().contains(*language);
    Translator::install(known && language ? Translator::localeOf(*language)
                        : known           ? Translator::chosenLocale()
                                          : QLocale::system());
    if (!known)
        fputs(qPrintable(
                  u"meterdesk: "_s +
                  QCoreApplication::translate("main", "--lang takes %1, not \"%2\".")
                      .arg(Translator::availableLanguages().join(u", "_s), *language) +
                  u'\n' +
                  QCoreApplication::translate("main", "Try 'meterdesk --help' for the options.") +
                  u'\n'),
              stderr);
    return known;
}

void addOptions(QCommandLineParser &parser, const Options &options)
{
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Desktop console for usage-based billing.") +
        u"\n\n"_s +
        QCoreApplication::translate("main", "Exit status:\n"
                                            "  0  The window was closed.\n"
                                            "  2  The command line is wrong."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions(
        {options.database, options.server, options.demo, options.catalogue, options.language});
}

// A wrong command line exits 2 with a hint; process() would exit 1 for an
// unknown option. Afterwards process() still answers --help and --version.
bool parseOrSayWhy(QCommandLineParser &parser)
{
    if (parser.parse(QCoreApplication::arguments()))
        return true;
    fputs(
        qPrintable(u"meterdesk: "_s + parser.errorText() + u'\n' +
                   QCoreApplication::translate("main", "Try 'meterdesk --help' for the options.") +
                   u'\n'),
        stderr);
    return false;
}

// --help and --version answer on a terminal without a display.
bool onlyAsksForText(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i)
        for (const char *text : {"-h", "--help", "--help-all", "-v", "--version"})
            if (qstrcmp(argv[i], text) == 0)
                return true;
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    if (onlyAsksForText(argc, argv)) {
        QCoreApplication app(argc, argv);
        if (!describe(languageAsked(argc, argv)))
            return ExitUsage;
        QCommandLineParser parser;
        const Options options;
        addOptions(parser, options);
        if (!parseOrSayWhy(parser))
            return ExitUsage;
        parser.process(app); // prints and exits 0
        return 0;
    }
    QApplication app(argc, argv);
    if (!describe(languageAsked(argc, argv)))
        return ExitUsage;
    QApplication::setApplicationDisplayName(u"Meterdesk"_s);
    QCommandLineParser parser;
    const Options options;
    addOptions(parser, options);
    if (!parseOrSayWhy(parser))
        return ExitUsage;
    parser.process(app);
    if (parser.isSet(options.database) && parser.isSet(options.server)) {
        fputs(qPrintable(QApplication::translate(
                  "main", "meterdesk: give --database or --server, not both.\n")),
              stderr);
        return ExitUsage;
    }

    const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dataDir);
    md::models::Connection connection =
        parser.isSet(options.database)
            ? md::models::Connection::guess(parser.value(options.database))
        : parser.isSet(options.server)
            ? md::models::Connection{md::models::Connection::Kind::Remote,
                                     parser.value(options.server)}
            : md::views::Console::startupConnection(QDir(dataDir).filePath(u"meterdesk.db"_s));
    md::views::Console console;
    console.setCatalogueFile(parser.value(options.catalogue));
    console.open(connection, parser.isSet(options.demo));
    return QApplication::exec();
}
