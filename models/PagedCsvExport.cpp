#include "models/PagedCsvExport.h"

#include <QSaveFile>
#include <QTimer>

namespace md::models {

using namespace Qt::StringLiterals;

PagedCsvExport::PagedCsvExport(PagedTableModel *model, QString header, Line line, QObject *parent)
    : QObject(parent)
    , m_model(model)
    , m_header(std::move(header))
    , m_line(std::move(line))
{
    connect(m_model, &PagedTableModel::loadingChanged, this, [this](bool loading) {
        if (!loading && isRunning())
            step();
    });
}

api::Result<api::Done> PagedCsvExport::start(const QString &path)
{
    if (isRunning())
        return api::ApiError::local(u"export_running"_s, tr("An export is already running."));
    m_path = path;
    if (!m_model->isLoading())
        QTimer::singleShot(0, this, &PagedCsvExport::step);
    return api::Done{};
}

void PagedCsvExport::step()
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

void PagedCsvExport::write()
{
    const QString path = std::exchange(m_path, QString());
    QString text = m_header;
    const int rows = m_model->rowCount();
    for (int row = 0; row < rows; ++row)
        text += m_line(row);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        Q_EMIT failed(
            tr("Cannot write %1: %2\nNo file was written.").arg(path, file.errorString()));
        return;
    }
    Q_EMIT finished(rows);
}

} // namespace md::models
