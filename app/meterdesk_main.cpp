// meterdesk: the desktop console.
#include "services/backend/EngineBackend.h"
#include "views/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(u"Meterdesk"_s);
    QApplication::setApplicationName(u"meterdesk"_s);
    QApplication::setApplicationDisplayName(u"Meterdesk"_s);
    QApplication::setApplicationVersion(QStringLiteral(MD_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Desktop console for usage-based billing."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption database(
        u"database"_s,
        QApplication::translate("main", "SQLite file or postgresql:// URL of the workspace."),
        u"D"_s);
    const QCommandLineOption demo(
        u"demo"_s,
        QApplication::translate("main", "Load the demo workspace if the database is empty."));
    parser.addOptions({database, demo});
    parser.process(app);

    QString location = parser.value(database);
    if (location.isEmpty()) {
        const QString dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
        QDir().mkpath(dataDir);
        location = QDir(dataDir).filePath(u"meterdesk.db"_s);
    }

    md::backend::EngineBackend backend(location);
    md::views::MainWindow window(&backend);
    window.show();
    backend.prepare(parser.isSet(demo))
        .then(&window, [&window](const md::api::Result<bool> &prepared) {
            if (!prepared) {
                window.connectionFailed(prepared.error().message);
                return;
            }
            window.connectionReady();
        });
    return QApplication::exec();
}
