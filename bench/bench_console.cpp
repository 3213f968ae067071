// The console on a generated workspace (default: the realistic demo at about
// 2,000,000 balances, issue 35), on the embedded engine and through
// meterdesk-server: time from opening the main window to the first rows
// shown, from a filter change to the first rows, until the table knows its
// size and until the organization's totals are shown (at once, and on a
// window left idle first), to show the last row
// (Ctrl+End) and rows anywhere (the scrollbar dragged to 40 places), and
// resident memory after visiting every part of the table. Run offscreen.
// Prints figures only.
#include "bench/BenchSupport.h"
#include "models/balances/BalanceFilter.h"
#include "models/balances/BalanceListModel.h"
#include "models/balances/BalanceTotalsModel.h"
#include "services/embedded/EngineBackend.h"
#include "services/remote/RemoteBackend.h"
#include "views/balances/BalancesPage.h"
#include "views/window/MainWindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>

using namespace md;
using namespace Qt::StringLiterals;

using bench::residentKiB;

namespace {

template <typename F> void until(F &&done)
{
    while (!done())
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 5);
}

// Every figure of the console on `backend`, printed.
void measure(backend::BillingBackend &backend, QTextStream &out)
{
    const qint64 baseline = residentKiB();
    QElapsedTimer timer;
    timer.start();
    views::MainWindow window(&backend);
    window.resize(1280, 800);
    window.show();
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

    // Back to every row: until the table knows its size and the totals are
    // shown. Timed twice: at once, while the window's first reads (the usage
    // chart's among them) may still run, and on a window left idle first.
    models::BalanceTotalsModel *totals = window.balancesPage()->totals();
    const auto showAll = [&] {
        timer.restart();
        window.balancesPage()->setFilter({});
        qint64 sizedMs = -1;
        qint64 totalsMs = -1;
        until([&] {
            if (sizedMs < 0 && model->isWindowed())
                sizedMs = timer.elapsed();
            if (totalsMs < 0 && !totals->isLoading())
                totalsMs = timer.elapsed();
            return sizedMs >= 0 && totalsMs >= 0;
        });
        return std::pair{sizedMs, totalsMs};
    };
    const auto [sizedMs, totalsMs] = showAll();
    window.balancesPage()->setFilter(filter);
    until([&] { return model->isWindowed() && !totals->isLoading(); });
    QElapsedTimer idle;
    idle.start();
    until([&] { return idle.elapsed() >= 2000; });
    const auto [settledSizedMs, settledTotalsMs] = showAll();
    QTableView *table = window.balancesPage()->table();
    const int rows = model->rowCount();

    // The user's moves: Ctrl+End, then the scrollbar dropped at 40 places
    // spread over the table; each timed until the rows there are shown.
    const auto showRow = [&](int row) {
        QElapsedTimer move;
        move.start();
        table->scrollTo(model->index(row, 0), QAbstractItemView::PositionAtCenter);
        table->viewport()->repaint(); // asks for the visible rows, as painting does
        until([&] { return model->isLoaded(row); });
        return move.nsecsElapsed() / 1000;
    };
    table->setFocus();
    const qint64 endUs = showRow(rows - 1);
    QList<qint64> jumps;
    for (int i = 0; i < 40; ++i)
        jumps.append(showRow(int((qint64(rows - 1) * ((i * 17) % 40)) / 39)));
    std::sort(jumps.begin(), jumps.end());
    // Every part of the table visited: a page in every 1 % of it.
    for (int i = 0; i <= 100; ++i)
        showRow(int(qint64(rows - 1) * i / 100));
    QCoreApplication::processEvents();
    const qint64 rss = residentKiB();

    out << "start to first rows shown: " << firstRowsMs << " ms\n"
        << "filter change to first rows: " << filterMs << " ms\n"
        << "filter change to a table of its true size (" << rows
        << " rows, balances.pages): " << sizedMs << " ms; on an idle window " << settledSizedMs
        << " ms (goal < 500 ms)\n"
        << "filter change to the organization's totals shown (balances.totals): " << totalsMs
        << " ms; on an idle window " << settledTotalsMs << " ms (goal < 300 ms)\n"
        << "Ctrl+End to the last row shown: " << endUs / 1000.0 << " ms (goal < 200 ms)\n"
        << "scrollbar dropped at 40 places, rows shown: median " << jumps.at(20) / 1000.0
        << " ms, slowest " << jumps.last() / 1000.0 << " ms (goal < 200 ms)\n"
        << "resident memory after visiting every part of the table: " << rss / 1024 << " MiB ("
        << (rss - baseline) / 1024 << " MiB above the process before the window; goal < 150 MiB); "
        << model->heldPages() << " pages of " << models::BalanceListModel::MaxWindowPages
        << " held\n";
    out.flush();
}

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    // The demo adds a twentieth of the customers in production: about
    // 2,000,000 balances in all.
    const QCommandLineOption customers(u"customers"_s, u"Customers."_s, u"N"_s, u"190476"_s);
    const QCommandLineOption perCustomer(u"balances-per-customer"_s, u"Rows per customer."_s,
                                         u"N"_s, u"10"_s);
    const QCommandLineOption viaOption(u"via"_s, u"engine, server or both."_s, u"WAY"_s, u"both"_s);
    const QCommandLineOption server(u"server"_s,
                                    u"meterdesk-server binary (makes the workspace)."_s, u"PATH"_s);
    // A workspace made before (by `workspace demo`, which printed its key)
    // saves making 2,000,000 balances again for each run.
    const QCommandLineOption database(u"database"_s, u"Use this workspace instead of making one."_s,
                                      u"FILE"_s);
    const QCommandLineOption keyOption(u"key"_s, u"The --database workspace's test key."_s,
                                       u"KEY"_s);
    parser.addOptions({customers, perCustomer, server, viaOption, database, keyOption});
    parser.process(app);
    QTextStream out(stdout);

    // The workspace is made by another process, so this one holds only the console.
    QTemporaryDir dir;
    QString location = parser.value(database);
    QString key = parser.value(keyOption);
    if (location.isEmpty()) {
        location = dir.filePath(u"console.db"_s);
        QProcess generator;
        generator.start(parser.value(server),
                        {u"workspace"_s, u"demo"_s, u"--database"_s, location, u"--customers"_s,
                         parser.value(customers), u"--balances-per-customer"_s,
                         parser.value(perCustomer),
                         // no months of statements for the sweep to close meanwhile
                         u"--statement-months"_s, u"0"_s});
        if (!generator.waitForFinished(600000) || generator.exitCode() != 0) {
            QTextStream(stderr) << "generating the workspace failed: "
                                << generator.readAllStandardError() << Qt::endl;
            return 1;
        }
        const QString text = QString::fromUtf8(generator.readAllStandardOutput());
        out << "workspace: " << text.section(u'\n', 0, 0) << "\n";
        key = QRegularExpression(u"(sk_test_\\w+)"_s).match(text).captured(1);
    } else {
        out << "workspace: " << location << "\n";
    }
    const QString via = parser.value(viaOption);
    if (via != "server"_L1) {
        out << "\n== the embedded engine\n";
        embedded::EngineBackend backend(location);
        auto prepared = backend.prepare(false);
        until([&] { return prepared.isFinished(); });
        measure(backend, out);
    }
    if (via != "engine"_L1) {
        out << "\n== through meterdesk-server (loopback HTTP)\n";
        QProcess serving;
        serving.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        serving.start(parser.value(server),
                      {u"serve"_s, u"--database"_s, location, u"--listen"_s, u"127.0.0.1:0"_s});
        if (!serving.waitForStarted() || !serving.waitForReadyRead(60000))
            bench::fail(u"meterdesk-server did not start"_s);
        remote::RemoteBackend backend(QUrl(QString::fromUtf8(serving.readLine()).trimmed().mid(13)),
                                      key);
        measure(backend, out);
        serving.terminate();
        serving.waitForFinished(60000);
    }
    return 0;
}
