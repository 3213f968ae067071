#include "views/import/PlanValuesDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace md::views {

PlanValuesDialog::PlanValuesDialog(const QMap<QString, int> &values, const QStringList &plans,
                                   const QMap<QString, QString> &current, QWidget *parent)
    : QDialog(parent)
    , m_table(new QTableWidget(int(values.size()), 3, this))
{
    setWindowTitle(tr("Plan values"));
    auto *explanation = new QLabel(
        tr("Say which plan each value of the plan column stands for. A value left empty is "
           "taken as the plan's id."),
        this);
    explanation->setWordWrap(true);
    m_table->setHorizontalHeaderLabels({tr("Value in the file"), tr("Rows"), tr("Plan")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    int row = 0;
    for (auto it = values.cbegin(); it != values.cend(); ++it, ++row) {
        auto *text = new QTableWidgetItem(it.key());
        text->setFlags(text->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(row, TextColumn, text);
        auto *count = new QTableWidgetItem(QLocale().toString(it.value()));
        count->setFlags(count->flags() & ~Qt::ItemIsEditable);
        count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, RowsColumn, count);
        auto *plan = new QComboBox(m_table);
        plan->setEditable(true);
        plan->addItem(QString());
        plan->addItems(plans);
        plan->setCurrentText(current.value(it.key()));
        plan->setAccessibleName(tr("Plan for %1").arg(it.key()));
        m_table->setCellWidget(row, PlanColumn, plan);
    }
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(explanation);
    layout->addWidget(m_table, 1);
    layout->addWidget(buttons);
    resize(560, 360);
}

QMap<QString, QString> PlanValuesDialog::applyTo(QMap<QString, QString> mapped) const
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QString text = m_table->item(row, TextColumn)->text();
        const QString plan = static_cast<const QComboBox *>(m_table->cellWidget(row, PlanColumn))
                                 ->currentText()
                                 .trimmed();
        if (!plan.isEmpty() && plan != text)
            mapped.insert(text, plan);
        else
            mapped.remove(text);
    }
    return mapped;
}

} // namespace md::views
