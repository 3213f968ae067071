// What the admin forms share: the form page, checked as you type (Review
// stays disabled, with the reason shown, while something is wrong or
// nothing changed), and the "Review changes" page with Back and Save.
// Cancel, Escape or closing the window on edits not saved asks before it
// drops them; reject() itself drops them without asking.
#pragma once

#include "models/common/FieldChange.h"
#include "services/api/ApiError.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QStackedWidget;

namespace md::views {

class ChangeReview;

class FormDialog : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FormDialog)

public:
    QPushButton *reviewButton() const { return m_review; }
    QPushButton *saveButton() const { return m_save; }
    QPushButton *backButton() const { return m_back; }
    QLabel *problemLabel() const { return m_problem; }
    ChangeReview *review() const { return m_changes; }
    bool isReviewing() const;
    // Whether the person has edited the form since it opened: a key pressed
    // or a click in it, and a change to save (or, typed, one that does not
    // read yet). What a form fills in itself (a preview, a default) is no edit.
    bool hasUnsavedEdits();

protected:
    explicit FormDialog(QWidget *parent);
    // The form's widgets go into this page; the problem line follows them.
    void setForm(QWidget *form);
    // What the form changes now; a problem, its field in words (FieldWords), when it is not valid.
    virtual QString changes(QList<models::FieldChange> *changes) = 0;
    // Sends the change; the subclass calls saveFailed() or accept().
    virtual void submit() = 0;
    // The review was just shown: a subclass may add its note (review()->setNote).
    virtual void reviewing() {}
    void saveFailed(const QString &message);
    // The server's refusal, a field it names said in words.
    void saveFailed(const api::ApiError &error);
    // Checks the form again; call it on every edit.
    void check();

    void keyPressEvent(QKeyEvent *event) override;
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // Closes, asking first when edits would be lost.
    void cancel();

    QStackedWidget *m_pages;
    QWidget *m_formPage;
    QLabel *m_problem;
    QPushButton *m_review;
    ChangeReview *m_changes;
    QPushButton *m_back;
    QPushButton *m_save;
    bool m_used = false;  // a key pressed or a click inside the form
    bool m_typed = false; // text typed or deleted inside the form
};

} // namespace md::views
