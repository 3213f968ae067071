// Every row of a paged table as a CSV file: the pages not fetched yet are
// fetched one after another, then the file is written at once (QSaveFile:
// the whole file or none). The audit log and the ledger export with it.
#pragma once

#include "models/PagedTableModel.h"
#include "services/api/Result.h"

#include <functional>

namespace md::models {

class PagedCsvExport final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PagedCsvExport)

public:
    using Line = std::function<QString(int row)>; // one CSV line, with its line break

    PagedCsvExport(PagedTableModel *model, QString header, Line line, QObject *parent = nullptr);

    // Refused while an export runs.
    api::Result<api::Done> start(const QString &path);
    bool isRunning() const { return !m_path.isEmpty(); }

Q_SIGNALS:
    void finished(int rows);
    void failed(const QString &message); // says that no file was written

private:
    void step();
    void write();

    PagedTableModel *m_model;
    QString m_header;
    Line m_line;
    QString m_path;
};

} // namespace md::models
