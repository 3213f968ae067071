#include "views/common/ExportButton.h"

#include "models/common/PagedExport.h"
#include "views/common/ExportFileDialog.h"

#include <QLabel>
#include <QMessageBox>

namespace md::views {

ExportButton::ExportButton(const QString &text, models::PagedExport *exporter, QString title,
                           std::function<QString()> suggested, QLabel *state, QWidget *parent)
    : QPushButton(text, parent)
    , m_exporter(exporter)
    , m_title(std::move(title))
    , m_suggested(std::move(suggested))
    , m_state(state)
{
    setToolTip(tr("Every row, not only those on screen, as CSV or as an Excel workbook"));
    connect(this, &QPushButton::clicked, this, [this] {
        const QString path = chooseExportFile(this, m_title, m_suggested());
        if (path.isEmpty())
            return;
        if (auto started = exportTo(path); !started)
            QMessageBox::warning(this, tr("Export failed"), started.error().message);
    });
    connect(m_exporter, &models::PagedExport::finished, this, [this](int rows) {
        setEnabled(true);
        m_state->setText(tr("Saved %Ln row(s).", nullptr, rows));
        Q_EMIT exported(rows);
    });
    connect(m_exporter, &models::PagedExport::failed, this, [this](const QString &message) {
        setEnabled(true);
        m_state->clear();
        QMessageBox::warning(this, tr("Export failed"), message);
    });
}

api::Result<api::Done> ExportButton::exportTo(const QString &path)
{
    auto started = m_exporter->start(path);
    if (started) {
        setEnabled(false);
        m_state->setText(tr("Saving every row…"));
    }
    return started;
}

} // namespace md::views
