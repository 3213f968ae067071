#include "models/balances/BalanceExport.h"

#include "models/balances/BalanceListModel.h"
#include "models/balances/BalanceReport.h"
#include "models/balances/BalanceTotalsModel.h"
#include "models/common/Workbook.h"
#include "models/connection/WorkspaceStatus.h"

#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QPdfWriter>
#include <QtConcurrent/QtConcurrentRun>

namespace md::models {

using namespace Qt::StringLiterals;

BalanceExport::BalanceExport(backend::BillingBackend *backend, QObject *parent)
    : QObject(parent)
    , m_backend(backend)
{}

BalanceExport::~BalanceExport()
{
    stop();
}

ExportColumns BalanceExport::columns()
{
    // Titled as the Balances table titles them.
    using M = BalanceListModel;
    const auto column = [](const QString &name, int tableColumn) {
        return ExportColumn{name, M::columnTitle(tableColumn)};
    };
    return {{u"id"_s, tr("Balance id")},
            column(u"customer_id"_s, M::CustomerColumn),
            column(u"entity_id"_s, M::EntityColumn),
            column(u"feature_id"_s, M::FeatureColumn),
            column(u"plan_id"_s, M::PlanColumn),
            column(u"included_grant"_s, M::IncludedColumn),
            column(u"prepaid_grant"_s, M::PrepaidColumn),
            column(u"remaining"_s, M::RemainingColumn),
            column(u"usage"_s, M::UsageColumn),
            column(u"unlimited"_s, M::UnlimitedColumn),
            column(u"reset_interval"_s, M::IntervalColumn),
            column(u"next_reset_at"_s, M::ResetColumn),
            column(u"expires_at"_s, M::ExpiresColumn),
            column(u"status"_s, M::StatusColumn),
            column(u"rollovers"_s, M::RolloversColumn),
            column(u"created_at"_s, M::CreatedColumn)};
}

ExportRow BalanceExport::cells(const api::BalanceRow &row)
{
    const auto text = [](const std::optional<QString> &value) -> ExportCell {
        return value ? ExportCell(*value) : ExportCell();
    };
    const auto time = [](std::optional<qint64> ms) -> ExportCell {
        return ms ? ExportCell(ExportTime{*ms}) : ExportCell();
    };
    return {row.id,
            row.customerId,
            text(row.entityId),
            row.featureId,
            text(row.planId),
            row.includedGrant,
            row.prepaidGrant,
            row.remaining,
            row.usage,
            row.unlimited,
            row.reset ? ExportCell(ExportWord{QString(api::toWire(row.reset->interval)),
                                              BalanceListModel::intervalName(row.reset->interval)})
                      : ExportCell(),
            time(row.reset ? row.reset->resetsAt : std::nullopt),
            time(row.expiresAt),
            ExportWord{QString(api::toWire(row.status)),
                       BalanceListModel::cell(row, BalanceListModel::StatusColumn).toString()},
            qint64(row.rollovers.size()),
            ExportTime{row.createdAt}};
}

QString BalanceExport::totalsPath(const QString &path)
{
    const QFileInfo file(path);
    const QString suffix = file.suffix().isEmpty() ? u"csv"_s : file.suffix();
    return file.dir().filePath(file.completeBaseName() + u"-totals."_s + suffix);
}

api::Result<api::Done> BalanceExport::start(const api::ListBalancesRequest &request,
                                            const QString &path, api::TotalsGroupBy groupBy)
{
    if (isRunning())
        return api::ApiError::local(u"export_running"_s, tr("An export is already running."));
    if (Workbook::isWorkbookPath(path)) {
        auto book = Workbook::create(path, {{tr("Balances"), columns()},
                                            {tr("Totals"), BalanceTotalsModel::columns(groupBy)}});
        if (!book)
            return book.error();
        m_book = std::move(book.value());
    } else if (isReportPath(path)) {
        auto file = std::make_shared<QSaveFile>(path);
        if (!file->open(QIODevice::WriteOnly))
            return api::ApiError::local(u"file_unwritable"_s,
                                        tr("Cannot write %1: %2").arg(path, file->errorString()));
        m_reportFile = std::move(file);
        m_report = std::make_shared<BalanceReport>(request, QDateTime::currentDateTime());
    } else if (auto opened = openCsv(path); !opened) {
        return opened;
    }
    begin(request, groupBy);
    return api::Done{};
}

api::Result<api::Done> BalanceExport::startReport(const api::ListBalancesRequest &request,
                                                  std::shared_ptr<QPagedPaintDevice> device,
                                                  api::TotalsGroupBy groupBy)
{
    if (isRunning())
        return api::ApiError::local(u"export_running"_s, tr("An export is already running."));
    m_reportDevice = std::move(device);
    m_report = std::make_shared<BalanceReport>(request, QDateTime::currentDateTime());
    begin(request, groupBy);
    return api::Done{};
}

bool BalanceExport::isReportPath(const QString &path)
{
    return path.endsWith(u".pdf"_s, Qt::CaseInsensitive);
}

void BalanceExport::begin(const api::ListBalancesRequest &request, api::TotalsGroupBy groupBy)
{
    m_totalsProblem.clear();
    m_request = request;
    m_request.limit = api::ListBalancesRequest::MaxLimit;
    m_request.startCursor.clear();
    m_rows = 0;
    m_expected = -1;
    m_cancelRequested = false;
    // From the event loop: nothing is signalled before start() returns.
    QMetaObject::invokeMethod(
        this,
        [this, groupBy] {
            if (m_report)
                requestWorkspace(groupBy);
            else
                requestTotals(groupBy);
        },
        Qt::QueuedConnection);
}

void BalanceExport::requestWorkspace(api::TotalsGroupBy groupBy)
{
    m_backend->connectionInfo().then(
        this, [this, groupBy](const api::Result<backend::ConnectionInfo> &connection) {
            if (!m_report)
                return;
            // A report without its workspace line is still a report.
            if (connection) {
                const backend::ConnectionInfo &c = connection.value();
                QStringList words;
                if (!c.orgName.isEmpty())
                    words.append(c.orgSlug.isEmpty() ? c.orgName
                                                     : u"%1 (%2)"_s.arg(c.orgName, c.orgSlug));
                if (!c.environment.isEmpty())
                    words.append(c.environment);
                words.append(WorkspaceStatus::inWords(c));
                m_report->setWorkspace(words.join(u" · "_s));
            }
            requestTotals(groupBy);
        });
}

api::Result<api::Done> BalanceExport::openCsv(const QString &path)
{
    auto file = std::make_unique<QSaveFile>(path);
    if (!file->open(QIODevice::WriteOnly))
        return api::ApiError::local(u"file_unwritable"_s,
                                    tr("Cannot write %1: %2").arg(path, file->errorString()));
    auto totals = std::make_unique<QSaveFile>(totalsPath(path));
    if (!totals->open(QIODevice::WriteOnly))
        return api::ApiError::local(
            u"file_unwritable"_s,
            tr("Cannot write %1: %2").arg(totals->fileName(), totals->errorString()));
    file->write(csvHeader().toUtf8());
    m_file = std::move(file);
    m_totalsFile = std::move(totals);
    return api::Done{};
}

void BalanceExport::requestTotals(api::TotalsGroupBy groupBy)
{
    api::BalanceTotalsRequest request;
    request.filter = m_request;
    request.groupBy = groupBy;
    m_backend->balanceTotals(request).then(
        this, [this, request](const api::Result<api::BalanceTotals> &totals) {
            if (!isRunning())
                return;
            // The rows are still worth having without their totals.
            if (totals) {
                if (m_report)
                    m_report->setTotals(totals.value(), request.groupBy);
                else if (m_book)
                    for (const ExportRow &row : BalanceTotalsModel::rows(request, totals.value()))
                        m_book->append(1, row);
                else
                    m_totalsFile->write(BalanceTotalsModel::csv(request, totals.value()).toUtf8());
                m_expected = totals.value().total.balances;
                if (m_report)
                    m_expected = qMin<qint64>(m_expected, BalanceReport::MaxRows);
            } else {
                if (m_totalsFile)
                    m_totalsFile->cancelWriting();
                m_totalsFile.reset();
                m_totalsProblem = totals.error().message;
            }
            Q_EMIT progress(0, m_expected);
            requestPage();
        });
}

void BalanceExport::cancel()
{
    m_cancelRequested = true;
    if (m_drawing && m_reportFile)
        m_stopDrawing->store(true);
}

void BalanceExport::stop()
{
    if (m_file)
        m_file->cancelWriting();
    if (m_totalsFile)
        m_totalsFile->cancelWriting();
    m_file.reset();
    m_totalsFile.reset();
    m_book.reset(); // abandoned: nothing is left behind
    // A report being drawn is the drawing thread's until it ends; without
    // a commit its file is discarded when that thread lets it go.
    if (m_reportFile && !m_drawing)
        m_reportFile->cancelWriting();
    m_reportFile.reset();
    m_reportDevice.reset();
    m_report.reset();
}

void BalanceExport::requestPage()
{
    m_backend->listBalances(m_request).then(
        this, [this](const api::Result<api::ListBalancesResponse> &page) {
            if (!isRunning())
                return;
            if (m_cancelRequested) {
                stop();
                Q_EMIT canceled();
                return;
            }
            if (!page) {
                stop();
                Q_EMIT failed(tr("The export stopped after %n row(s): %1", nullptr, int(m_rows))
                                  .arg(page.error().message));
                return;
            }
            if (m_report) {
                m_report->addRows(page.value().list);
            } else if (m_book) {
                for (const api::BalanceRow &row : page.value().list)
                    m_book->append(0, cells(row));
            } else {
                QString text;
                for (const api::BalanceRow &row : page.value().list)
                    text += csvLine(row);
                m_file->write(text.toUtf8());
            }
            m_rows = m_report ? m_report->rowCount() : m_rows + page.value().list.size();
            Q_EMIT progress(m_rows, m_expected);
            if (page.value().hasMore && !(m_report && m_report->isFull())) {
                m_request.startCursor = *page.value().nextCursor;
                // From the event loop: a backend that answers at once must not recurse.
                QMetaObject::invokeMethod(this, &BalanceExport::requestPage, Qt::QueuedConnection);
                return;
            }
            complete();
        });
}

void BalanceExport::complete()
{
    if (m_report) {
        drawReport();
        return;
    }
    if (m_book) {
        // Zipping a workbook takes seconds for a million rows: not on this thread.
        Q_EMIT saving();
        QtConcurrent::run([book = m_book] {
            return book->save();
        }).then(this, [this](const api::Result<api::Done> &saved) {
            m_book.reset();
            if (!saved)
                Q_EMIT failed(saved.error().message);
            else
                Q_EMIT finished(m_rows, m_totalsProblem);
        });
        return;
    }
    if (!m_file->commit()) {
        const QString message = tr("Cannot save the export: %1").arg(m_file->errorString());
        stop();
        Q_EMIT failed(message);
        return;
    }
    if (m_totalsFile && !m_totalsFile->commit())
        m_totalsProblem = m_totalsFile->errorString();
    m_file.reset();
    m_totalsFile.reset();
    Q_EMIT finished(m_rows, m_totalsProblem);
}

void BalanceExport::drawReport()
{
    m_drawing = true;
    m_stopDrawing = std::make_shared<std::atomic_bool>(false);
    Q_EMIT drawing(0, 0);
    // Drawn off the GUI thread (QPainter may draw on a printer or a PDF
    // writer in any thread); pages are counted through the promise, and the
    // watcher goes with this object if the console closes meanwhile.
    auto *watcher = new QFutureWatcher<api::Result<int>>(this);
    connect(watcher, &QFutureWatcherBase::progressValueChanged, this,
            [this, watcher](int page) { Q_EMIT drawing(page, watcher->progressMaximum()); });
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_drawing = false;
        const api::Result<int> drawn = watcher->result();
        QString problem = drawn ? QString() : drawn.error().message;
        if (drawn && m_reportFile && !m_reportFile->commit())
            problem = tr("Cannot save the report: %1").arg(m_reportFile->errorString());
        m_reportFile.reset();
        stop();
        if (!drawn && drawn.error().code == QLatin1StringView("stopped"))
            Q_EMIT canceled();
        else if (problem.isEmpty())
            Q_EMIT finished(m_rows, m_totalsProblem);
        else
            Q_EMIT failed(problem);
    });
    watcher->setFuture(
        QtConcurrent::run([report = m_report, file = m_reportFile, device = m_reportDevice,
                           stop = m_stopDrawing](QPromise<api::Result<int>> &promise) {
            std::unique_ptr<QPdfWriter> writer;
            QPagedPaintDevice *target = device.get();
            if (file) {
                writer = std::make_unique<QPdfWriter>(file.get());
                writer->setCreator(u"Meterdesk"_s);
                writer->setTitle(BalanceReport::tr("Balances report"));
                writer->setPageSize(QPageSize(QPageSize::A4));
                writer->setPageOrientation(QPageLayout::Landscape);
                writer->setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
                target = writer.get();
            }
            promise.addResult(report->draw(
                target,
                [&promise](int page, int pages) {
                    promise.setProgressRange(0, pages);
                    promise.setProgressValue(page);
                },
                [&stop] { return stop->load(); }));
        }));
}

} // namespace md::models
