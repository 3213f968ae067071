// Every row of a paged table to a file: the pages not fetched yet are
// fetched one after another, then the file is written whole, as CSV
// (QSaveFile: the whole file or none) or, for a path ending in ".xlsx", as
// an Excel workbook with typed cells (Workbook), written off the GUI thread.
// The audit log and the ledger export with it.
#pragma once

#include "models/common/ExportRow.h"
#include "models/common/PagedTableModel.h"
#include "services/api/Result.h"

#include <functional>

namespace md::models {

class PagedExport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PagedExport)

public:
    using Cells = std::function<ExportRow(int row)>;

    // `sheet` names the workbook's sheet; CSV heads its columns with their
    // names, a workbook with their titles.
    PagedExport(PagedTableModel *model, ExportColumns columns, Cells cells, QString sheet,
                QObject *parent = nullptr);

    // Refused while an export runs.
    api::Result<api::Done> start(const QString &path);
    bool isRunning() const { return !m_path.isEmpty(); }

Q_SIGNALS:
    void finished(int rows);
    void failed(const QString &message); // says that no file was written

private:
    void step();
    void write();
    void done(const api::Result<api::Done> &written, int rows);

    PagedTableModel *m_model;
    ExportColumns m_columns;
    Cells m_cells;
    QString m_sheet;
    QString m_path;
};

} // namespace md::models
