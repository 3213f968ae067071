// meterdesk: the desktop console.
#include "views/Console.h"
#include "views/Translator.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QStandardPaths>

#include <cstdio>

using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(u"Meterdesk"_s);
    QApplication::setApplicationName(u"meterdesk"_s);
    QApplication::setApplicationDisplayName(u"Meterdesk"_s);
    QApplication::setApplicationVersion(QStringLiteral(MD_VERSION));
    const QString language = md::views::Translator::chosenLanguage();
    md::views::Translator::install(language == "system"_L1 ? QLocale::system() : QLocale(language));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Desktop console for usage-based billing."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption database(
        u"database"_s,
        QApplication::translate("main", "SQLite file or postgresql:// URL of the workspace."),
        u"D"_s);
    const QCommandLineOption server(
        u"server"_s,
        QApplication::translate("main",
                                "Base URL of a remote billing server (asks for the API key)."),
        u"URL"_s);
    const QCommandLineOption demo(
        u"demo"_s,
        QApplication::translate("main", "Load the demo workspace if the database is empty."));
    const QCommandLineOption catalogue(
        u"catalogue"_s,
        QApplication::translate("main",
                                "A models.dev price catalogue file for embedded workspaces."),
        u"FILE"_s);
    parser.addOptions({database, server, demo, catalogue});
    parser.process(app);
    if (parser.isSet(database) && parser.isSet(server)) {
        fputs(qPrintable(QApplication::translate(
                  "main", "meterdesk: give --database or --server, not both.\n")),
              stderr);
        return 2;
    }

    const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dataDir);
    md::models::Connection connection =
        parser.isSet(database) ? md::models::Connection::guess(parser.value(database))
        : parser.isSet(server)
            ? md::models::Connection{md::models::Connection::Kind::Remote, parser.value(server)}
            : md::views::Console::startupConnection(QDir(dataDir).filePath(u"meterdesk.db"_s));
    md::views::Console console;
    console.setCatalogueFile(parser.value(catalogue));
    console.open(connection, parser.isSet(demo));
    return QApplication::exec();
}
