#include "views/admin/ProductsPage.h"

#include "models/admin/ProductListModel.h"
#include "models/admin/PromotionModel.h"
#include "views/admin/ProductDialog.h"
#include "views/admin/PromotionDialog.h"

#include <QLabel>
#include <QPushButton>
#include <QTableView>

namespace md::views {

ProductsPage::ProductsPage(backend::BillingBackend *backend, QWidget *parent)
    : EditorPage(new models::ProductListModel(backend), tr("Products could not be read: %1"),
                 parent)
    , m_model(static_cast<models::ProductListModel *>(table()->model()))
    , m_promotion(new models::PromotionModel(backend, this))
{
    table()->setObjectName(QStringLiteral("productTable"));
    auto *promoteButton = new QPushButton(tr("&Promote to production…"), this);
    promoteButton->setObjectName(QStringLiteral("promoteButton"));
    addButton(promoteButton);
    connect(promoteButton, &QPushButton::clicked, this, &ProductsPage::promote);
}

PromotionDialog *ProductsPage::promote()
{
    auto *dialog = new PromotionDialog(m_promotion, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &PromotionDialog::promoted, this, [this](int steps) {
        m_promotedLast = true;
        saved(tr("Promoted %n change(s) to production.", nullptr, steps));
        refresh(); // production's products, as the promotion left them
    });
    dialog->open();
    return dialog;
}

QFuture<api::Result<QString>> ProductsPage::undoLast()
{
    if (!m_promotedLast)
        return EditorPage::undoLast();
    return m_promotion->undoLast().then(this, [this](const api::Result<QString> &undone) {
        if (undone)
            m_promotedLast = false;
        return undone;
    });
}

QString ProductsPage::undoQuestion() const
{
    return m_promotedLast
               ? tr("The last change was a promotion to production. Undoing it puts production's "
                    "products back as they were before it, at once, for every customer on a "
                    "live key. Undo the promotion?")
               : QString();
}

void ProductsPage::refresh()
{
    m_model->reload();
}

ProductDialog *ProductsPage::editSelected()
{
    const QModelIndex current = table()->currentIndex();
    if (!current.isValid())
        return nullptr;
    auto *dialog = new ProductDialog(m_model, m_model->product(current.row()), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ProductDialog::saved, this,
            [this](const api::Product &before, const api::Product &after) {
                m_model->remember(before, after);
                m_promotedLast = false;
                saved(tr("Saved %1 (version %2).").arg(after.id).arg(after.version));
                refresh();
            });
    dialog->open();
    return dialog;
}

} // namespace md::views
