// SPDX-License-Identifier: MIT
#pragma once
// The OOM decoder's answer in words, translated (tr): a title, the numbers of the message in
// human units, what they mean, tensors of that size, and the fixes with what each saves.
// Built from the model's OomMessage and OomDiagnosis; shared by `memviz explain` and the
// decoder page, so both say the same.
#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include "costmodel/CostModel.h"
#include "workshop/OomDiagnosis.h"
#include "workshop/OomMessage.h"
#include "workshop/ShapeGuesses.h"

namespace memviz {

struct OomFact {
    QString label;
    QString value;
};

struct OomFix {
    QString id;    // "smaller-batch", "expandable-segments", ... (stable, for JSON and tests)
    QString title; // "Halve the batch (64 -> 32)"
    QString detail;
    qint64 savedBytes = -1; // -1: the saving is not known
    QString lessonId;       // the lesson that explains it ("" when none)
    qint64 peakBytes = -1;  // the cost model's peak after the fix (-1: not from the model)
    int fits = -1;          // 1/0: the peak fits the device's memory from the message; -1: unknown
};

struct OomReport {
    workshop::OomMessage message;
    workshop::OomDiagnosis diagnosis;
    QString title;
    QList<OomFact> facts;
    QStringList explanation; // one paragraph each
    std::vector<workshop::ShapeGuess> shapes;
    QList<OomFix> fixes; // most saving first; those with unknown savings last
    QString context;     // what the fixes were computed for ("ResNet-50, batch 64, ..."), or ""
};

class OomReportBuilder {
    Q_DECLARE_TR_FUNCTIONS(OomReportBuilder)
public:
    static OomReport build(const QString& text);
    // Sorts fixes by saving (unknown last) and stores them.
    static void setFixes(OomReport& report, QList<OomFix> fixes);
    // Fixes that need no model: expandable_segments when fragmentation is likely, batches from
    // a DataLoader for one huge CPU tensor.
    static QList<OomFix> modelFreeFixes(const OomReport& report);
    // Adds the cost model's fixes for a model (smaller batch, half precision, checkpointing, a
    // lighter optimizer, no_grad) to the model-free ones, ranked by saving. `title` names the
    // model. Throws std::invalid_argument for options the cost model rejects.
    static void addModelFixes(OomReport& report, const QString& title, const costmodel::ResolvedModel& model,
                              const costmodel::EstimateOptions& options);
    // The device the message ran on, for the cost model (CUDA for GPU messages).
    static costmodel::DeviceKind deviceOf(const OomReport& report);
    // Plain text for the command line.
    static QString plainText(const OomReport& report);
    // HTML for the decoder page; fixes link to "lesson:<id>". The facts can be left out when
    // a table shows them.
    static QString html(const OomReport& report, bool withFacts = true);

    static QString bytesText(qint64 bytes);                     // "717,574,400 bytes (717.6 MB = 684.3 MiB)"
    static QString printedText(const workshop::PrintedSize& s); // "20.00 MiB (21.0 MB)"
    static QString shapeText(const workshop::ShapeGuess& g);    // "[112121, 1, 40, 40] float32"

private:
    static QString formTitle(const workshop::OomMessage& m);
    static void addFacts(OomReport& r);
    static void addExplanation(OomReport& r);
    static void addUnrecognized(OomReport& r, const QString& text);
};

} // namespace memviz
