// The console on a generated workspace (default 10,000 x 100 = 1,000,000
// balance rows): time from opening the main window to the first rows shown,
// from a filter change to the first rows, and resident memory after
// scrolling to the last row. Run offscreen. Prints figures only.
#include "bench/BenchSupport.h"
#include "models/BalanceFilter.h"
#include "models/BalanceListModel.h"
#include "services/embedded/EngineBackend.h"
#include "views/BalancesPage.h"
#include "views/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>

using namespace md;
using namespace Qt::StringLiterals;

using bench::residentKiB;

namespace {

template <typename F> void until(F &&done)
{
    while (!done())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
}

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption customers(u"customers"_s, u"Customers."_s, u"N"_s, u"10000"_s);
    const QCommandLineOption perCustomer(u"balances-per-customer"_s, u"Rows per customer."_s,
                                         u"N"_s, u"100"_s);
    const QCommandLineOption server(u"server"_s,
                                    u"meterdesk-server binary (makes the workspace)."_s, u"PATH"_s);
    parser.addOptions({customers, perCustomer, server});
    parser.process(app);
    QTextStream out(stdout);

    // The workspace is made by another process, so this one holds only the console.
    QTemporaryDir dir;
    const QString location = dir.filePath(u"console.db"_s);
    QProcess generator;
    generator.start(parser.value(server),
                    {u"workspace"_s, u"demo"_s, u"--database"_s, location, u"--customers"_s,
                     parser.value(customers), u"--balances-per-customer"_s,
                     parser.value(perCustomer)});
    if (!generator.waitForFinished(600000) || generator.exitCode() != 0) {
        QTextStream(stderr) << "generating the workspace failed: "
                            << generator.readAllStandardError() << Qt::endl;
        return 1;
    }
    out << "workspace: "
        << QString::fromUtf8(generator.readAllStandardOutput()).section(u'\n', 0, 0) << "\n";
    const qint64 baseline = residentKiB();

    QElapsedTimer timer;
    timer.start();
    embedded::EngineBackend backend(location);
    auto prepared = backend.prepare(false);
    views::MainWindow window(&backend);
    window.resize(1280, 800);
    window.show();
    until([&] { return prepared.isFinished(); });
    window.connectionReady();
    models::BalanceListModel *model = window.balancesPage()->model();
    until([&] { return model->rowCount() > 0; });
    const qint64 firstRowsMs = timer.elapsed();

    models::BalanceFilter filter;
    filter.featureId = u"storage_gb"_s;
    timer.restart();
    window.balancesPage()->setFilter(filter);
    until([&] { return model->rowCount() > 0 && !model->isLoading(); });
    const qint64 filterMs = timer.elapsed();

    window.balancesPage()->setFilter({});
    until([&] { return model->rowCount() > 0 && !model->isLoading(); });
    timer.restart();
    QTableView *table = window.balancesPage()->table();
    while (model->hasMore()) {
        table->scrollToBottom();
        if (model->canFetchMore({}))
            model->fetchMore({});
        until([&] { return !model->isLoading(); });
    }
    table->scrollToBottom();
    QCoreApplication::processEvents();
    const qint64 scrollMs = timer.elapsed();
    const qint64 rss = residentKiB();

    out << "start to first rows shown: " << firstRowsMs << " ms\n"
        << "filter change to first rows: " << filterMs << " ms\n"
        << "scrolled to the last of " << model->rowCount() << " rows in " << scrollMs << " ms\n"
        << "resident memory after scrolling: " << rss / 1024 << " MiB (" << (rss - baseline) / 1024
        << " MiB above the process before the window)\n";
    out.flush();
    return 0;
}
