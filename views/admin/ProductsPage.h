// Products (admins): every product's newest version; Edit… opens the form;
// Promote to production… compares the sandbox with production and copies
// the chosen differences (docs/promotion.md); "Undo last change" writes
// back what the last save or promotion replaced.
#pragma once

#include "services/api/Product.h"
#include "views/common/EditorPage.h"

namespace md::backend {
class BillingBackend;
}
namespace md::models {
class ProductListModel;
class PromotionModel;
} // namespace md::models

namespace md::views {

class ProductDialog;
class PromotionDialog;

class ProductsPage final : public EditorPage
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProductsPage)

public:
    explicit ProductsPage(backend::BillingBackend *backend, QWidget *parent = nullptr);

    void refresh();
    // Opens the form on the selected product (window-modal); null without one.
    ProductDialog *editSelected();
    models::ProductListModel *model() const { return m_model; }
    // Opens the comparison of sandbox and production (window-modal).
    PromotionDialog *promote();

protected:
    void edit() override { editSelected(); }
    QFuture<api::Result<QString>> undoLast() override;
    QString undoQuestion() const override;

private:
    models::ProductListModel *m_model;
    models::PromotionModel *m_promotion;
    bool m_promotedLast = false; // the last change undone by Undo was a promotion
};

} // namespace md::views
