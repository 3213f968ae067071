// An "Export…" button for a paged table (docs/export.md): asks where and in
// which format (CSV or Excel), fetches every page, writes the file, and says
// how it went in the page's state line; a failure is a message box.
#pragma once

#include "services/api/Result.h"

#include <QPushButton>

#include <functional>

class QLabel;

namespace md::models {
class PagedExport;
}

namespace md::views {

class ExportButton final : public QPushButton
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ExportButton)

public:
    // `suggested` names the file offered ("customers.csv").
    ExportButton(const QString &text, models::PagedExport *exporter, QString title,
                 std::function<QString()> suggested, QLabel *state, QWidget *parent);

    // Without asking: every row to `path`.
    api::Result<api::Done> exportTo(const QString &path);

Q_SIGNALS:
    void exported(int rows);

private:
    models::PagedExport *m_exporter;
    QString m_title;
    std::function<QString()> m_suggested;
    QLabel *m_state;
};

} // namespace md::views
