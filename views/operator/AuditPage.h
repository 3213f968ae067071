// Audit: who changed what (audit_log.list). Filters by resource, by who and
// by time; the entries newest first, read again when the page is shown and
// something was written meanwhile; the selected entry's before and after
// side by side, with the fields that changed marked; and CSV export of every
// entry of the filter.
#pragma once

#include "services/api/Result.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTextBrowser;
class QTimer;

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class AuditLogModel;
class PagedExport;
} // namespace md::models

namespace md::views {

class AuditPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AuditPage)

public:
    explicit AuditPage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    models::AuditLogModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    void refresh();
    // Fetches every entry of the filter, then writes them to `path`.
    api::Result<api::Done> exportTo(const QString &path);

Q_SIGNALS:
    void statusMessage(const QString &message);
    void exported(qint64 entries);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void applyFilter();
    void showEntry();
    void updateState();
    void chooseExport();

    models::AuditLogModel *m_model;
    QComboBox *m_resource;
    QLineEdit *m_resourceId;
    QLineEdit *m_actor;
    QComboBox *m_period;
    QPushButton *m_export;
    models::PagedExport *m_exporter;
    QTableView *m_table;
    QLabel *m_changed;
    QTextBrowser *m_before;
    QTextBrowser *m_after;
    QTimer *m_debounce;
    QString m_reselect; // the entry current when the rows were dropped
};

} // namespace md::views
