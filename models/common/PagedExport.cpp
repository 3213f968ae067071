#include "models/common/PagedExport.h"

#include "models/common/Workbook.h"

#include <QSaveFile>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace md::models {

using namespace Qt::StringLiterals;

PagedExport::PagedExport(PagedTableModel *model, ExportColumns columns, Cells cells, QString sheet,
                         QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_columns(std::move(columns))
    , m_cells(std::move(cells))
    , m_sheet(std::move(sheet))
{
    connect(m_model, &PagedTableModel::loadingChanged, this, [this](bool loading) {
        if (!loading && isRunning())
            step();
    });
}

api::Result<api::Done> PagedExport::start(const QString &path)
{
    if (isRunning())
        return api::ApiError::local(u"export_running"_s, tr("An export is already running."));
    m_path = path;
    if (!m_model->isLoading())
        QTimer::singleShot(0, this, &PagedExport::step);
    return api::Done{};
}

void PagedExport::step()
{
    if (!isRunning() || m_model->isLoading())
        return;
    if (const auto &error = m_model->lastError()) {
        m_path.clear();
        Q_EMIT failed(tr("%1\nNo file was written.").arg(error->message));
    } else if (m_model->hasMore()) {
        m_model->fetchMore({});
    } else {
        write();
    }
}

void PagedExport::write()
{
    const int rows = m_model->rowCount();
    QList<ExportRow> table;
    table.reserve(rows);
    for (int row = 0; row < rows; ++row)
        table.append(m_cells(row));
    if (Workbook::isWorkbookPath(m_path)) {
        // Compressing takes seconds for many rows: not on the GUI thread.
        QtConcurrent::run([path = m_path, sheet = Workbook::Sheet{m_sheet, m_columns},
                           table = std::move(table)]() -> api::Result<api::Done> {
            auto book = Workbook::create(path, {sheet});
            if (!book)
                return book.error();
            for (const ExportRow &row : table)
                book.value()->append(0, row);
            return book.value()->save();
        }).then(this, [this, rows](const api::Result<api::Done> &written) { done(written, rows); });
        return;
    }
    QString text = csvHeaderOf(m_columns);
    for (const ExportRow &row : std::as_const(table))
        text += csvLineOf(row);
    QSaveFile file(m_path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        done(api::ApiError::local(u"file_unwritable"_s,
                                  tr("Cannot write %1: %2").arg(m_path, file.errorString())),
             rows);
        return;
    }
    done(api::Done{}, rows);
}

void PagedExport::done(const api::Result<api::Done> &written, int rows)
{
    m_path.clear();
    if (!written)
        Q_EMIT failed(tr("%1\nNo file was written.").arg(written.error().message));
    else
        Q_EMIT finished(rows);
}

} // namespace md::models
