#include "views/admin/PromotionDialog.h"

#include "models/admin/PromotionModel.h"
#include "views/common/ChangeReview.h"
#include "views/common/EditorPage.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace md::views {

PromotionDialog::PromotionDialog(models::PromotionModel *model, QWidget *parent)
    : FormDialog(parent)
    , m_model(model)
    , m_table(new QTableView(this))
    , m_sideBySide(new ChangeReview(this))
    , m_state(new QLabel(this))
{
    setWindowTitle(tr("Promote sandbox to production"));
    resize(1100, 620);
    m_table->setObjectName(QStringLiteral("promotionTable"));
    m_table->setModel(model);
    EditorPage::setUpTable(m_table);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->installEventFilter(this);
    m_sideBySide->setObjectName(QStringLiteral("promotionSideBySide"));
    m_sideBySide->setTitles(tr("The entry's fields that differ:"), tr("Production"), tr("Sandbox"));
    review()->setTitles(tr("Production takes these values from the sandbox:"), tr("Production now"),
                        tr("Production after"));
    m_state->setObjectName(QStringLiteral("promotionState"));
    m_state->setWordWrap(true);
    m_state->setText(tr("Reading both environments…"));

    auto *all = new QPushButton(tr("Choose &all"), this);
    auto *none = new QPushButton(tr("Choose &none"), this);
    auto *again = new QPushButton(tr("Compare a&gain"), this);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(all);
    buttons->addWidget(none);
    buttons->addWidget(again);
    buttons->addStretch();
    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_table);
    splitter->addWidget(m_sideBySide);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto *form = new QWidget(this);
    auto *layout = new QVBoxLayout(form);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *intro = new QLabel(tr("Products and rewards whose sandbox and production differ. "
                                "Choose what production takes over from the sandbox; "
                                "Undo last change on the Products page puts it back."),
                             form);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    layout->addLayout(buttons);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_state);
    setForm(form);
    reviewButton()->setText(tr("Re&view promotion…"));
    saveButton()->setText(tr("&Promote"));

    connect(all, &QPushButton::clicked, this, [this] { m_model->chooseAll(true); });
    connect(none, &QPushButton::clicked, this, [this] { m_model->chooseAll(false); });
    connect(again, &QPushButton::clicked, m_model, &models::PromotionModel::reload);
    connect(m_model, &models::PromotionModel::chosenChanged, this, [this] { check(); });
    connect(m_model, &models::ListTableModel::loaded, this, [this] {
        m_state->setText(m_model->isEmpty()
                             ? tr("Sandbox and production are the same: nothing to promote.")
                             : tr("%n difference(s).", nullptr, m_model->rowCount()));
        m_table->resizeColumnsToContents();
        if (m_model->rowCount() > 0)
            m_table->setCurrentIndex(m_model->index(0, models::PromotionModel::KindColumn));
        showCurrent();
        check();
    });
    connect(m_model, &models::ListTableModel::failed, this, [this](const api::ApiError &error) {
        m_state->setText(tr("The environments could not be compared: %1").arg(error.message));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &PromotionDialog::showCurrent);
    m_model->reload();
    check();
}

void PromotionDialog::showCurrent()
{
    const QModelIndex current = m_table->currentIndex();
    m_sideBySide->show(current.isValid() ? m_model->fieldsOf(current.row())
                                         : QList<models::FieldChange>());
}

QString PromotionDialog::changes(QList<models::FieldChange> *changes)
{
    if (m_model->rowCount() == 0)
        return {};
    if (m_model->chosenCount() == 0)
        return tr("Choose at least one difference to promote (Space ticks the row).");
    *changes = m_model->chosenChanges();
    return {};
}

bool PromotionDialog::eventFilter(QObject *watched, QEvent *event)
{
    // Space ticks the current row from any of its cells: the table itself
    // ticks only when the box's own cell is current, and a click makes
    // another cell current.
    if (watched == m_table && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        const QModelIndex current = m_table->currentIndex();
        if (key->key() == Qt::Key_Space && key->modifiers() == Qt::NoModifier &&
            current.isValid()) {
            m_model->toggleChosen(current.row());
            return true;
        }
    }
    return FormDialog::eventFilter(watched, event);
}

void PromotionDialog::submit()
{
    const int steps = m_model->chosenCount();
    m_model->promoteChosen().then(
        this, [this, steps](const api::Result<api::EnvironmentPromoted> &promoted) {
            if (promoted) {
                Q_EMIT this->promoted(steps);
                accept();
                return;
            }
            if (promoted.error().code == QLatin1StringView("production_changed")) {
                saveFailed(tr("%1. The differences are read again: go back, look at them and "
                              "choose again.")
                               .arg(promoted.error().message));
                // This review is of the old differences: nothing to promote from it.
                saveButton()->setEnabled(false);
                m_model->reload();
                return;
            }
            saveFailed(promoted.error().message);
        });
}

} // namespace md::views
