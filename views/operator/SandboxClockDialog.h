// Tools ▸ Sandbox clock… (docs/user-guide.md, "The sandbox clock"): the
// sandbox's now; a later moment to move it to; what that would reset, roll
// over and expire, by feature, from the server's dry run as the moment is
// chosen; then the admin forms' review and Move clock, which applies it.
// A production workspace is told plainly that its clock is the real one.
#pragma once

#include "views/common/FormDialog.h"

#include <QTimer>

class QDateTimeEdit;
class QLabel;
class QTableView;

namespace md::backend {
class BillingBackend;
}
namespace md::api {
struct ClockAdvanced;
}
namespace md::models {
class SandboxClockModel;
}

namespace md::views {

class SandboxClockDialog final : public FormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SandboxClockDialog)

public:
    explicit SandboxClockDialog(backend::BillingBackend *backend, QWidget *parent = nullptr);
    // How far ahead the clock may be moved in one go.
    static constexpr int MaxYearsAhead = 10;

    QDateTimeEdit *target() const { return m_target; }
    QTableView *table() const { return m_table; }
    QLabel *state() const { return m_state; }
    models::SandboxClockModel *model() const { return m_model; }

Q_SIGNALS:
    // The clock moved; `answer` says what fell due.
    void advanced(const md::api::ClockAdvanced &answer);

protected:
    QString changes(QList<models::FieldChange> *changes) override;
    void submit() override;

private:
    qint64 chosen() const;

    models::SandboxClockModel *m_model;
    QLabel *m_now;
    QDateTimeEdit *m_target;
    QTableView *m_table;
    QLabel *m_state;
    QTimer m_previewSoon;
};

} // namespace md::views
