// Editing a product: general fields, the items table (tiers edited inline
// as "up-to:amount" pairs, rollovers as "max/length interval") and the free trial, checked as you
// type (Review stays disabled, with the reason shown, while something is wrong), then a "Review
// changes" step with the field-by-field difference before Save, and what Save
// will do to the versions, asked of the server by a dry run.
#pragma once

#include "models/admin/ProductEdit.h"
#include "views/common/FormDialog.h"

#include <QSet>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLineEdit;
class QSpinBox;
class QTableWidget;

namespace md::models {
class ProductListModel;
}

namespace md::views {

class ProductDialog final : public FormDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ProductDialog)

public:
    enum ItemColumn {
        FeatureColumn,
        IncludedColumn,
        IntervalColumn,
        EveryColumn,
        RolloverColumn,
        UsageModelColumn,
        PriceColumn,
        UnitsColumn,
        TiersColumn,
        ResetColumn,
        ItemColumnCount
    };
    // On a row's feature cell: the index of the stored item it shows, -1 for a new row.
    static constexpr int OriginalRole = Qt::UserRole;

    ProductDialog(models::ProductListModel *products, const api::Product &product,
                  QWidget *parent = nullptr);

    QLineEdit *nameEdit() const { return m_name; }
    QSpinBox *versionEdit() const { return m_version; }
    QTableWidget *items() const { return m_items; }
    // What Save would send, as the form stands (nullopt while it is not valid).
    const std::optional<api::UpdateProductRequest> &request() const { return m_request; }

Q_SIGNALS:
    // The server took the change: the product before and as saved.
    void saved(const md::api::Product &before, const md::api::Product &after);

protected:
    QString changes(QList<models::FieldChange> *changes) override;
    void submit() override;
    void reviewing() override;

private:
    models::ProductForm form() const;
    void addItemRow(const models::ProductForm::Item &item);
    void markProblem(const QString &path);

    models::ProductListModel *m_products;
    api::Product m_before;
    QSet<QString> m_features; // known feature ids, once read
    QLineEdit *m_id;
    QLineEdit *m_name;
    QLineEdit *m_group;
    QCheckBox *m_addOn;
    QCheckBox *m_default;
    QCheckBox *m_archived;
    QSpinBox *m_version;
    QTableWidget *m_items;
    QGroupBox *m_trial;
    QSpinBox *m_trialLength;
    QComboBox *m_trialDuration;
    QCheckBox *m_trialFingerprint;
    std::optional<api::UpdateProductRequest> m_request;
    quint64 m_previews = 0; // dry runs asked; only the newest answer is shown
};

} // namespace md::views
