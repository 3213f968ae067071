#include "views/common/FormDialog.h"

#include "models/common/FieldWords.h"
#include "views/common/ChangeReview.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace md::views {

FormDialog::FormDialog(QWidget *parent)
    : QDialog(parent)
    , m_pages(new QStackedWidget(this))
    , m_formPage(new QWidget(this))
    , m_problem(new QLabel(this))
    , m_review(new QPushButton(tr("Re&view changes…"), this))
    , m_changes(new ChangeReview(this))
    , m_back(new QPushButton(tr("&Back"), this))
    , m_save(new QPushButton(tr("&Save"), this))
{
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color:#c62828"));
    auto *formLayout = new QVBoxLayout(m_formPage);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addWidget(m_problem);
    m_pages->addWidget(m_formPage);
    m_pages->addWidget(m_changes);
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_review, QDialogButtonBox::ActionRole);
    buttons->addButton(m_back, QDialogButtonBox::ActionRole);
    buttons->addButton(m_save, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Cancel);
    m_back->hide();
    m_save->hide();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_pages, 1);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::rejected, this, &FormDialog::cancel);
    connect(m_review, &QPushButton::clicked, this, [this] {
        QList<models::FieldChange> list;
        if (!changes(&list).isEmpty() || list.isEmpty())
            return;
        m_changes->show(list);
        m_save->setEnabled(true); // a review made now can be saved
        m_pages->setCurrentIndex(1);
        reviewing();
    });
    connect(m_back, &QPushButton::clicked, this, [this] { m_pages->setCurrentIndex(0); });
    connect(m_save, &QPushButton::clicked, this, [this] {
        m_save->setEnabled(false);
        submit();
    });
    connect(m_pages, &QStackedWidget::currentChanged, this, [this](int page) {
        m_back->setVisible(page == 1);
        m_save->setVisible(page == 1);
        m_review->setVisible(page == 0);
        m_save->setDefault(page == 1);
    });
}

void FormDialog::setForm(QWidget *form)
{
    static_cast<QVBoxLayout *>(m_formPage->layout())->insertWidget(0, form, 1);
}

bool FormDialog::isReviewing() const
{
    return m_pages->currentIndex() == 1;
}

void FormDialog::saveFailed(const QString &message)
{
    m_save->setEnabled(true);
    m_changes->showProblem(message);
}

void FormDialog::saveFailed(const api::ApiError &error)
{
    saveFailed(models::FieldWords::sentence(error));
}

bool FormDialog::hasUnsavedEdits()
{
    QList<models::FieldChange> list;
    const QString problem = changes(&list);
    return m_used && (!list.isEmpty() || (m_typed && !problem.isEmpty()));
}

void FormDialog::cancel()
{
    if (!hasUnsavedEdits())
        return reject();
    if (findChild<QMessageBox *>(QStringLiteral("discardQuestion")))
        return; // already asking
    auto *ask = new QMessageBox(QMessageBox::Question, tr("Discard changes"),
                                tr("Your changes in this form are not saved. Discard them?"),
                                QMessageBox::NoButton, this);
    ask->setObjectName(QStringLiteral("discardQuestion"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *discard = ask->addButton(tr("&Discard changes"), QMessageBox::DestructiveRole);
    ask->setDefaultButton(ask->addButton(tr("&Keep editing"), QMessageBox::RejectRole));
    connect(discard, &QPushButton::clicked, this, &QDialog::reject);
    ask->open();
}

void FormDialog::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape && event->modifiers() == Qt::NoModifier)
        return cancel();
    QDialog::keyPressEvent(event);
}

void FormDialog::closeEvent(QCloseEvent *event)
{
    if (isVisible() && hasUnsavedEdits()) {
        event->ignore();
        return cancel();
    }
    QDialog::closeEvent(event);
}

void FormDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    // Its widgets come and go (a table's cell editors): the application's
    // events are watched while the form is shown, for its own.
    qApp->installEventFilter(this);
}

void FormDialog::hideEvent(QHideEvent *event)
{
    qApp->removeEventFilter(this);
    QDialog::hideEvent(event);
}

bool FormDialog::eventFilter(QObject *watched, QEvent *event)
{
    const bool key = event->type() == QEvent::KeyPress;
    const auto *pressed = key ? static_cast<QKeyEvent *>(event) : nullptr;
    if ((key || event->type() == QEvent::MouseButtonRelease) && watched->isWidgetType() &&
        m_formPage->isAncestorOf(static_cast<QWidget *>(watched)) &&
        !(pressed && pressed->key() == Qt::Key_Escape)) {
        m_used = true;
        m_typed =
            m_typed ||
            (pressed && ((!pressed->text().isEmpty() && pressed->text().at(0).isPrint()) ||
                         pressed->key() == Qt::Key_Backspace || pressed->key() == Qt::Key_Delete));
    }
    return QDialog::eventFilter(watched, event);
}

void FormDialog::check()
{
    QList<models::FieldChange> list;
    const QString problem = changes(&list);
    const bool changed = problem.isEmpty() && !list.isEmpty();
    m_problem->setText(problem);
    m_review->setEnabled(changed);
    m_review->setToolTip(problem.isEmpty() && !changed ? tr("Nothing has changed yet") : problem);
}

} // namespace md::views
