"""verified_query.py - a LlamaIndex query engine over a PDF read with Ethos: retrieved nodes checked against the PDF, the answer graded without an LLM judge.

Run from anywhere (no API key, no network):

    pip install 'ethos-verify[llamaindex]'
    python examples/llamaindex/verified_query.py

EthosPDFReader reads the bundled sample PDF into citable documents; one node in the vector store
is then edited (a figure changed, as a stale or tampered index would hold it); EthosNodeVerifier
drops it before it reaches the LLM (llama-index-core's MockLLM); EthosEvaluator grades two
answers by their quotations. Prints what was kept and the two grades.
"""

from __future__ import annotations

from llama_index.core import VectorStoreIndex
from llama_index.core.embeddings import MockEmbedding
from llama_index.core.llms import MockLLM

from ethos_py.demo import SAMPLE_PDF
from ethos_py.integrations.llamaindex import EthosEvaluator, EthosNodeVerifier, EthosPDFReader

QUOTE = "Median time to resolution fell from 9.2 days to 6.1 days"


def main() -> None:
    documents = EthosPDFReader().load_data(SAMPLE_PDF)
    index = VectorStoreIndex.from_documents(documents, embed_model=MockEmbedding(embed_dim=8))
    # A node edited in the store: the index says 3.1 days where the PDF says 6.1.
    stored = next(node for node in index.docstore.docs.values() if QUOTE in node.get_content())
    stored.set_content(stored.get_content().replace("6.1 days", "3.1 days"))
    index.docstore.add_documents([stored])
    engine = index.as_query_engine(llm=MockLLM(), similarity_top_k=len(documents),
                                   node_postprocessors=[EthosNodeVerifier(sources=SAMPLE_PDF)])
    response = engine.query("How fast were tickets resolved?")
    print(f"retrieved={len(documents)} kept={len(response.source_nodes)} "
          f"dropped_edited_node={all('3.1 days' not in n.node.get_content() for n in response.source_nodes)}")
    evaluator = EthosEvaluator(SAMPLE_PDF)
    for answer in (f"The paper says “{QUOTE}”.", f"The paper says “{QUOTE.replace('6.1', '3.1')}”."):
        result = evaluator.evaluate(query="How fast?", response=answer)
        print(f"passing={result.passing} score={result.score} gate={(result.feedback or '').splitlines()[-1]}")


if __name__ == "__main__":
    main()
