// The import wizard on 10,000 customers (two billables with three reported
// balances each), driven as a user would (offscreen): the file opened, read
// and checked, the dry run of every customer (each looked up first for the
// before/after), then the commit with its journal. Once through
// EngineBackend, once over loopback HTTP to meterdesk-server. A 5 ms timer on
// the GUI thread measures the longest gap between its ticks: the worst stall.
// Prints figures; exits non-zero if a customer fails.
#include "bench/BenchSupport.h"
#include "models/import/ImportBatch.h"
#include "models/import/ImportPreviewModel.h"
#include "models/import/ImportRunner.h"
#include "models/import/ImportSession.h"
#include "services/embedded/EngineBackend.h"
#include "services/engine/Engine.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include "services/remote/RemoteBackend.h"
#include "views/import/ImportSourcePage.h"
#include "views/import/ImportWizard.h"
#include <QJsonObject>

#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

using namespace md;
using namespace Qt::StringLiterals;

using bench::fail;

namespace {

QTextStream out(stdout);

const QString Secret = u"sk_test_benchimport000000000000000000000"_s;

// starter from Stripe and pro from RevenueCat, three usages reported on each.
QByteArray customers(int count)
{
    QByteArray lines;
    for (int c = 0; c < count; ++c) {
        const auto balances = [c](const QStringList &features) {
            QJsonArray list;
            for (const QString &feature : features)
                list.append(QJsonObject{{u"feature_id"_s, feature}, {u"usage"_s, c % 3}});
            return list;
        };
        const QJsonObject body{
            {u"customer_id"_s, u"imported-%1"_s.arg(c, 5, 10, QChar(u'0'))},
            {u"customer_data"_s, QJsonObject{{u"name"_s, u"Imported %1"_s.arg(c)},
                                             {u"email"_s, u"billing%1@example.com"_s.arg(c)}}},
            {u"processors"_s,
             QJsonArray{QJsonObject{{u"type"_s, u"stripe"_s}, {u"id"_s, u"cus_i%1"_s.arg(c)}},
                        QJsonObject{{u"type"_s, u"revenuecat"_s}, {u"id"_s, u"rc_i%1"_s.arg(c)}}}},
            {u"billables"_s,
             QJsonArray{
                 QJsonObject{{u"processor"_s, u"stripe"_s},
                             {u"plan"_s,
                              QJsonObject{{u"plan_id"_s, u"starter"_s},
                                          {u"balances"_s, balances({u"api_calls"_s, u"ai_credits"_s,
                                                                    u"seats"_s})}}}},
                 QJsonObject{{u"processor"_s, u"revenuecat"_s},
                             {u"plan"_s,
                              QJsonObject{{u"plan_id"_s, u"pro"_s},
                                          {u"balances"_s, balances({u"api_calls"_s, u"storage_gb"_s,
                                                                    u"seats"_s})}}}}}}};
        lines += QJsonDocument(body).toJson(QJsonDocument::Compact) + '\n';
    }
    return lines;
}

// The longest gap between ticks of a 5 ms timer: how long the thread was busy.
class StallMeter final
{
public:
    StallMeter()
    {
        m_timer.setInterval(5);
        QObject::connect(&m_timer, &QTimer::timeout,
                         [this] { m_worst = std::max(m_worst, m_clock.restart()); });
        m_clock.start();
        m_timer.start();
    }
    qint64 worstMs() const { return m_worst; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_worst = 0;
};

void waitFor(models::ImportRunner *runner)
{
    QEventLoop loop;
    QObject::connect(runner, &models::ImportRunner::finished, &loop, &QEventLoop::quit);
    if (runner->isRunning())
        loop.exec();
}

void run(const QString &label, backend::BillingBackend &backend, const QString &file)
{
    out << "== " << label << Qt::endl;
    views::ImportWizard wizard(&backend);
    wizard.show();
    QString error;
    QObject::connect(wizard.session()->runner(), &models::ImportRunner::finished,
                     [&](bool, const QString &why) { error = why; });
    const models::ImportPreviewModel *preview = wizard.session()->preview();

    QElapsedTimer clock;
    clock.start();
    {
        StallMeter stall;
        static_cast<views::ImportSourcePage *>(wizard.page(views::ImportWizard::SourcePage))
            ->openFile(file);
        QEventLoop loop;
        QObject::connect(wizard.session()->batch(), &models::ImportBatch::ready, &loop,
                         &QEventLoop::quit);
        if (wizard.session()->batch()->isReading())
            loop.exec();
        out << "  opened, read and checked: " << wizard.session()->batch()->rowCount()
            << " customers in " << clock.elapsed() << " ms, longest gap between 5 ms ticks "
            << stall.worstMs() << " ms" << Qt::endl;
    }
    clock.restart();
    wizard.next(); // JSON Lines: straight to validation
    out << "  validation page shown in " << clock.elapsed() << " ms" << Qt::endl;
    if (wizard.session()->batch()->problemCount() > 0)
        fail(u"some rows did not pass the local checks"_s);

    StallMeter dryStall;
    clock.restart();
    wizard.next();
    waitFor(wizard.session()->runner());
    const qint64 dryMs = clock.elapsed();
    const int added = preview->outcomeCounts().at(int(models::ImportOutcome::New));
    if (!error.isEmpty() || added != preview->rowCount())
        fail(u"dry run: %1 new of %2 %3 %4"_s.arg(added)
                 .arg(preview->rowCount())
                 .arg(error, preview->entry(0).message));
    out << "  dry run: " << dryMs << " ms (" << added * 1000 / std::max<qint64>(dryMs, 1)
        << " customers/s), longest gap between 5 ms ticks of the GUI thread " << dryStall.worstMs()
        << " ms" << Qt::endl;

    StallMeter commitStall;
    clock.restart();
    wizard.next();
    waitFor(wizard.session()->runner());
    const qint64 commitMs = clock.elapsed();
    const int committed = preview->commitCounts().value(models::CommitState::Committed);
    if (!error.isEmpty() || committed != preview->rowCount())
        fail(u"commit: %1 of %2 committed %3"_s.arg(committed).arg(preview->rowCount()).arg(error));
    out << "  commit: " << commitMs << " ms (" << committed * 1000 / std::max<qint64>(commitMs, 1)
        << " customers/s), longest gap " << commitStall.worstMs() << " ms" << Qt::endl;
}

void prepare(const QString &location)
{
    engine::Engine setup(location);
    if (auto opened = setup.open(); !opened)
        fail(opened.error().message);
    engine::DemoOptions options;
    options.statementMonths = 0; // nothing for the sweep to close meanwhile
    options.customers = 10;
    options.testSecret = Secret;
    options.nowMs = QDateTime::currentMSecsSinceEpoch();
    if (auto loaded = setup.loadWorkspace(engine::DemoWorkspace::build(options)); !loaded)
        fail(loaded.error().message);
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption server(u"server"_s, u"meterdesk-server binary."_s, u"PATH"_s);
    const QCommandLineOption countOption(u"customers"_s, u"Customers in the file."_s, u"N"_s,
                                         u"10000"_s);
    parser.addOptions({server, countOption});
    parser.process(app);
    if (parser.value(server).isEmpty())
        fail(u"give --server"_s);
    QTemporaryDir dir;
    const QByteArray data = customers(parser.value(countOption).toInt());
    out << "customers file: " << data.size() / 1024 << " KiB" << Qt::endl;
    // One file per run: each has its own journal beside it.
    const auto write = [&](const QString &name) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::WriteOnly) || file.write(data) != data.size())
            fail(u"cannot write "_s + file.fileName());
        return file.fileName();
    };

    const QString embedded = dir.filePath(u"embedded.db"_s);
    prepare(embedded);
    {
        embedded::EngineBackend backend(embedded, engine::Clock(), Secret);
        auto prepared = backend.prepare(false);
        prepared.waitForFinished();
        run(u"EngineBackend (SQLite)"_s, backend, write(u"embedded.jsonl"_s));
    }

    const QString served = dir.filePath(u"served.db"_s);
    prepare(served);
    QProcess process;
    process.start(parser.value(server),
                  {u"serve"_s, u"--database"_s, served, u"--listen"_s, u"127.0.0.1:0"_s});
    if (!process.waitForStarted() || !process.waitForReadyRead(30000))
        fail(u"meterdesk-server did not start"_s);
    const QUrl url(QString::fromUtf8(process.readLine()).trimmed().mid(13));
    {
        remote::RemoteBackend backend(url, Secret);
        run(u"RemoteBackend over loopback HTTP (SQLite)"_s, backend, write(u"remote.jsonl"_s));
    }
    process.terminate();
    process.waitForFinished();
    return 0;
}
