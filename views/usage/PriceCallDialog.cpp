#include "views/usage/PriceCallDialog.h"

#include "models/common/AmountFormat.h"

#include <QComboBox>
#include <QCompleter>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

namespace md::views {

using namespace Qt::StringLiterals;

namespace {

QString money(const api::Decimal &amount)
{
    return u"$ "_s + models::formatAmount(amount, QLocale(), 2);
}

} // namespace

PriceCallDialog::PriceCallDialog(backend::BillingBackend *backend, QWidget *parent)
    : QDialog(parent)
    , m_pricer(backend)
    , m_model(new QComboBox(this))
    , m_customer(new QLineEdit(this))
    , m_pools(new QTableWidget(0, 4, this))
    , m_result(new QLabel(this))
    , m_record(new QPushButton(tr("&Record for customer…"), this))
    , m_debounce(new QTimer(this))
{
    setWindowTitle(tr("Price a call"));
    setMinimumWidth(560);
    m_model->setEditable(true);
    m_model->setInsertPolicy(QComboBox::NoInsert);
    m_model->completer()->setFilterMode(Qt::MatchContains);
    m_model->completer()->setCompletionMode(QCompleter::PopupCompletion);
    m_customer->setPlaceholderText(tr("none: the catalogue price without markup"));
    m_customer->setClearButtonEnabled(true);

    auto *form = new QFormLayout;
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("C&ustomer:"), m_customer);
    const QStringList names{tr("Input tokens:"),       tr("Output tokens:"),
                            tr("Cache read tokens:"),  tr("Cache write tokens:"),
                            tr("Reasoning tokens:"),   tr("Audio input tokens:"),
                            tr("Audio output tokens:")};
    for (const QString &name : names) {
        auto *spin = new QSpinBox(this);
        spin->setRange(0, 2'000'000'000);
        spin->setGroupSeparatorShown(true);
        spin->setAccelerated(true);
        form->addRow(name, spin);
        m_tokens.append(spin);
        connect(spin, &QSpinBox::valueChanged, m_debounce, qOverload<>(&QTimer::start));
    }
    m_pools->setHorizontalHeaderLabels({tr("Pool"), tr("Tokens"), tr("$ per million"), tr("Cost")});
    m_pools->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_pools->verticalHeader()->hide();
    m_pools->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_pools->setMinimumHeight(150);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_result->setWordWrap(true);
    m_record->setEnabled(false);
    m_record->setToolTip(tr("Tracks this call against the customer's AI credits"));

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_record, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_record, &QPushButton::clicked, this, &PriceCallDialog::record);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_pools);
    layout->addWidget(m_result);
    layout->addWidget(buttons);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &PriceCallDialog::requestQuote);
    connect(m_model, &QComboBox::currentTextChanged, m_debounce, qOverload<>(&QTimer::start));
    connect(m_customer, &QLineEdit::textChanged, m_debounce, qOverload<>(&QTimer::start));

    m_pricer.models().then(this, [this](const api::Result<api::Page<api::ModelInfo>> &models) {
        if (!models) {
            m_result->setText(
                tr("The model catalogue could not be read: %1").arg(models.error().message));
            return;
        }
        const QString current = m_model->currentText();
        const QSignalBlocker blocker(m_model);
        for (const api::ModelInfo &model : models.value().list)
            m_model->addItem(model.id);
        m_model->setEditText(current);
    });
}

void PriceCallDialog::setCustomer(const QString &customerId)
{
    m_customer->setText(customerId);
}

void PriceCallDialog::setModel(const QString &modelId)
{
    m_model->setEditText(modelId);
}

void PriceCallDialog::setTokens(const QList<qint64> &tokens)
{
    for (qsizetype i = 0; i < std::min(tokens.size(), m_tokens.size()); ++i)
        m_tokens.at(i)->setValue(int(tokens.at(i)));
}

QString PriceCallDialog::resultText() const
{
    return m_result->text();
}

api::TrackTokensRequest PriceCallDialog::request() const
{
    api::TrackTokensRequest request;
    request.customerId = m_customer->text().trimmed();
    request.modelId = m_model->currentText().trimmed();
    request.inputTokens = m_tokens.at(0)->value();
    request.outputTokens = m_tokens.at(1)->value();
    request.cacheReadTokens = m_tokens.at(2)->value();
    request.cacheWriteTokens = m_tokens.at(3)->value();
    request.reasoningTokens = m_tokens.at(4)->value();
    request.audioInputTokens = m_tokens.at(5)->value();
    request.audioOutputTokens = m_tokens.at(6)->value();
    return request;
}

void PriceCallDialog::requestQuote()
{
    const quint64 generation = ++m_generation;
    m_record->setEnabled(false);
    if (!m_model->currentText().contains(u'/')) {
        m_quote.reset();
        m_pools->setRowCount(0);
        m_result->setText(tr("Pick a model: provider/model, as the catalogue lists it."));
        return;
    }
    m_pricer.quote(request()).then(this,
                                   [this, generation](const api::Result<api::CallQuote> &quote) {
                                       if (generation != m_generation)
                                           return; // the inputs changed meanwhile
                                       if (!quote) {
                                           m_quote.reset();
                                           m_pools->setRowCount(0);
                                           m_result->setText(quote.error().message);
                                           Q_EMIT quoted();
                                           return;
                                       }
                                       showQuote(quote.value());
                                   });
}

void PriceCallDialog::showQuote(const api::CallQuote &quote)
{
    m_quote = quote;
    m_pools->setRowCount(int(quote.pools.size()));
    for (int row = 0; row < quote.pools.size(); ++row) {
        const api::CallQuote::Pool &pool = quote.pools.at(row);
        const QStringList cells{pool.name, QLocale().toString(pool.tokens),
                                models::formatAmount(pool.pricePerMillion, QLocale(), 2),
                                models::formatAmount(pool.cost, QLocale(), 2)};
        for (int column = 0; column < cells.size(); ++column) {
            auto *item = new QTableWidgetItem(cells.at(column));
            if (column > 0)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_pools->setItem(row, column, item);
        }
    }
    const QString source = quote.markupSource == "model"_L1      ? tr("set for this model")
                           : quote.markupSource == "provider"_L1 ? tr("set for this provider")
                           : quote.markupSource == "default"_L1  ? tr("the credit system's default")
                                                                 : tr("no markup set");
    const QString system = quote.featureId ? tr(" of %1").arg(*quote.featureId) : QString();
    m_result->setText(tr("Base cost %1; markup %2 % (%3%4). <b>%5</b>")
                          .arg(money(quote.baseCost),
                               models::formatAmount(quote.markup, QLocale(), 0), source, system,
                               quote.free
                                   ? tr("Free: the call is recorded and nothing is deducted.")
                                   : tr("Charged: %1").arg(money(quote.value))));
    m_record->setEnabled(!m_customer->text().trimmed().isEmpty());
    Q_EMIT quoted();
}

void PriceCallDialog::record()
{
    const api::TrackTokensRequest call = request();
    if (!m_quote || call.customerId.isEmpty())
        return;
    if (QMessageBox::question(this, tr("Record this call?"),
                              tr("Deduct %1 from the AI credits of %2? This is a real usage "
                                 "event and cannot be undone here.")
                                  .arg(money(m_quote->free ? api::Decimal() : m_quote->value),
                                       call.customerId)) != QMessageBox::Yes)
        return;
    m_record->setEnabled(false);
    m_pricer.track(call).then(this, [this, customer = call.customerId](
                                        const api::Result<api::TrackTokensResponse> &done) {
        if (!done) {
            m_result->setText(tr("Not recorded: %1").arg(done.error().message));
            m_record->setEnabled(true);
            return;
        }
        api::Decimal deducted; // less than the value when capped at zero
        for (const api::Deduction &deduction : done.value().deductions)
            deducted = deducted.plus(deduction.value).value_or(deducted);
        const QString left =
            done.value().balance ? money(done.value().balance->remaining) : tr("unknown");
        m_result->setText(
            tr("Recorded for %1: %2 deducted, %3 left.").arg(customer, money(deducted), left));
        Q_EMIT recorded(customer);
    });
}

} // namespace md::views
