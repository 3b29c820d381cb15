/**
 * The public datasets Concord's adapters and demo seed read, pinned file by file.
 *
 * Each file has its place in the data folder (`path`, the layout of the shared data README), the URL of the same
 * bytes in its upstream repository at the pinned commit, and the SHA-256 and size of those bytes. `npx concord data
 * fetch` downloads from `url` (or from `<mirror>/<path>`) and keeps a file only when its checksum matches.
 *
 * The checksums and sizes were computed from the pinned copies Concord is developed and tested against.
 * The upstream paths come from each repository's layout at or near the pinned commit. Those of MathDial, Bridge,
 * PandaLM and AITutor-EvalKit are the paths the repositories list; those marked "unverified" below (MRBench and
 * MathTutorBench) were inferred (from the repository's own configuration or from the paths other projects cite)
 * and have not been checked against the commit itself: if upstream serves something else there, the checksum
 * refuses it and `--mirror` remains the way to fetch.
 */

export type ManifestFile = {
  /** Relative path inside the data folder, with `/` separators. */
  path: string;
  /** Where upstream serves these bytes at the pinned commit. */
  url: string;
  sha256: string;
  bytes: number;
};

export type ManifestDataset = {
  /** The name `--only` takes. */
  name: string;
  title: string;
  /** The upstream repository, `owner/name` on GitHub. */
  repo: string;
  commit: string;
  licence: string;
  /** Whom to cite, in a line. */
  cite: string;
  files: ManifestFile[];
};

export type Manifest = { datasets: ManifestDataset[] };

type Row = [path: string, upstreamPath: string, sha256: string, bytes: number];

function dataset(d: Omit<ManifestDataset, 'files'>, rows: Row[]): ManifestDataset {
  return {
    ...d,
    files: rows.map(([path, upstreamPath, sha256, bytes]) => ({
      path,
      url: `https://raw.githubusercontent.com/${d.repo}/${d.commit}/${upstreamPath}`,
      sha256,
      bytes,
    })),
  };
}

export const PUBLIC_DATA_MANIFEST: Manifest = {
  datasets: [
    dataset(
      {
        name: 'mathdial',
        title: 'MathDial test split: teacher–student tutoring conversations on GSM8K problems',
        repo: 'eth-nlped/mathdial',
        commit: 'b452be4',
        licence: 'CC BY-SA 4.0',
        cite: 'Macina et al., "MathDial: A Dialogue Tutoring Dataset with Rich Pedagogical Properties Grounded in Math Reasoning Problems", Findings of EMNLP 2023',
      },
      [['mathdial/test.jsonl', 'data/test.jsonl', '3ec54ee8ab921dc6191bf5e2ee766d4e7916b4264394eb17a6be9b3fe486e50b', 1858054]],
    ),
    dataset(
      {
        name: 'bridge',
        title: 'Bridge: tutoring snippets with novice and expert replies, and LLM replies to the same contexts',
        repo: 'rosewang2008/bridge',
        commit: 'a5b1d426ce517e0aeb4b7b2a64e842501c98e38f',
        licence: "MIT (the repository's LICENSE, copied as bridge/LICENSE)",
        cite: 'Wang et al., "Bridging the Novice-Expert Gap via Models of Decision-Making: A Case Study on Remediating Math Mistakes", NAACL 2024',
      },
      [
        ['bridge/test.json', 'dataset/test.json', '7c1f5eccce6f635924ca495439c7a9d70885c73122dd4caf8ad9066c657265e9', 521815],
        ['bridge/LICENSE', 'LICENSE', '6e26bb9b58991a2fbe7e551a5d365d41780e47a5b35831e292b23d20ffce1352', 1069],
        [
          'bridge/responses/chatgpt_chatgpt.json',
          'outputs/responses/chatgpt_chatgpt.json',
          'b96e83696eea2b27bfa01d2a2f71f13505d6902466cb9736b34b2fb0dbe90aca',
          176075,
        ],
        [
          'bridge/responses/expert_chatgpt.json',
          'outputs/responses/expert_chatgpt.json',
          'cc320e45b05a13806f166f0405b3b997b97f4897595af01c890c1fd5909fcc72',
          505081,
        ],
        [
          'bridge/responses/expert_expert.json',
          'outputs/responses/expert_expert.json',
          'bf0fcb6f7b6d74b76e68e3bc8459d9902bfb08945dd4d92065def3e1c00da3f5',
          185439,
        ],
        [
          'bridge/responses/expert_flan-t5-finetuned.json',
          'outputs/responses/expert_flan-t5-finetuned.json',
          '726571f7f8d8949cfb6b2f96db978f810eaa0ae39f9247f05fd7b5ea841e9128',
          500206,
        ],
        [
          'bridge/responses/expert_godel-finetuned.json',
          'outputs/responses/expert_godel-finetuned.json',
          '6bbb88e30cb223c6338f15af98d75f2466bab32387699493d1615c247766e642',
          497757,
        ],
        [
          'bridge/responses/expert_gpt4.json',
          'outputs/responses/expert_gpt4.json',
          '5545bccd8deffa69b30b51109d4e6fbaf97d562fa44743d21f71dcda99c96d42',
          511060,
        ],
        [
          'bridge/responses/expert_llama-2-70b-chat.json',
          'outputs/responses/expert_llama-2-70b-chat.json',
          'b6060327c85b7af67203bb556574c0c2bdcc50347137f11ffd2f680ad892f1e4',
          484923,
        ],
        [
          'bridge/responses/gpt4_gpt4.json',
          'outputs/responses/gpt4_gpt4.json',
          'bdfa6c9a81d02db5fd4c0d9d86a33680034e815492b59e5a6c945701e80801ee',
          176061,
        ],
        [
          'bridge/responses/llama-2-70b-chat_llama-2-70b-chat.json',
          'outputs/responses/llama-2-70b-chat_llama-2-70b-chat.json',
          '96e848a3d7c447f92120787c2e59db4f1b61ca52b3ef9526d4791439eb119245',
          473740,
        ],
        [
          'bridge/responses/none_chatgpt.json',
          'outputs/responses/none_chatgpt.json',
          'adfa5669fb4baac32ef74dec59701d703bd7afc0788f330db9942431ddc9e912',
          172830,
        ],
        [
          'bridge/responses/none_falcon-40b-instruct.json',
          'outputs/responses/none_falcon-40b-instruct.json',
          'fe624496516c5f2d6da616cb34bf06a7b371fb3c4ebfd435ee3d1211df5d519d',
          264155,
        ],
        [
          'bridge/responses/none_gpt4.json',
          'outputs/responses/none_gpt4.json',
          '67a4d9989393e9ef9bbe5cba7af8ce51f999c4313e198d7d71cdf1cf065eebb7',
          176047,
        ],
        [
          'bridge/responses/none_llama-2-70b-chat.json',
          'outputs/responses/none_llama-2-70b-chat.json',
          '4dc4c8a45313c9389479129f402ed17b9989e47d0bb2c8e064b468d4a40332f5',
          271641,
        ],
        [
          'bridge/responses/random_chatgpt.json',
          'outputs/responses/random_chatgpt.json',
          '9430316d2d5f0aaf2b314a96f86adb509d10a31d72ff340c2e06be4264e6ce44',
          299461,
        ],
        [
          'bridge/responses/random_gpt4.json',
          'outputs/responses/random_gpt4.json',
          '78550bb9806f009a036defbbf76791d8ac6d9561d67a89cb4c8143fdec7ff7a5',
          297696,
        ],
        [
          'bridge/responses/random_llama-2-70b-chat.json',
          'outputs/responses/random_llama-2-70b-chat.json',
          'c074a93fcdc103f03c0e2b5c6ee9373598bfb5aba0ea773f1bb65e0980a56959',
          491052,
        ],
      ],
    ),
    dataset(
      {
        name: 'pandalm',
        title: "PandaLM test set: 999 pairwise items with three human labels, and two LLM judges' verdicts",
        repo: 'WeOpenML/PandaLM',
        commit: '3871806',
        licence: "Apache-2.0 (the repository's LICENSE, copied as pandalm/LICENSE)",
        cite: 'Wang et al., "PandaLM: An Automatic Evaluation Benchmark for LLM Instruction Tuning Optimization", ICLR 2024',
      },
      [
        ['pandalm/testset-v1.json', 'data/testset-v1.json', 'cc154f9067c7382d7ea86f8f246511a5e1ac87e1fddd845c5938d789505b07a4', 937899],
        [
          'pandalm/gpt-3.5-turbo-testset-v1.json',
          'data/gpt-3.5-turbo-testset-v1.json',
          '4c00aa7b3eeae504050a037422ba6f5b0a2ee041680f47bb77b8a4b549b128e3',
          459434,
        ],
        [
          'pandalm/pandalm-7b-testset-v1.json',
          'data/pandalm-7b-testset-v1.json',
          '9a40b62a7bb2aa87ca77eb8bfcb51539b5a62f974ce91678d30e834d65ed0a7e',
          403524,
        ],
        ['pandalm/LICENSE', 'LICENSE', '4670bc86a291c1bf35e91e20da0cb534fc255c9f20c2ed6380e7538e8b421ba3', 11352],
      ],
    ),
    dataset(
      {
        name: 'mrbench',
        title: 'MRBench V1 and the BEA 2025 shared task dev set (MRBench V3): tutor replies labelled on pedagogical dimensions',
        repo: 'kaushal0494/UnifyingAITutorEvaluation',
        commit: 'bbef521',
        licence: 'CC BY-SA 4.0',
        cite: 'Maurya et al., "Unifying AI Tutor Evaluation", NAACL 2025; Kochmar et al., "Findings of the BEA 2025 Shared Task on Pedagogical Ability Assessment of AI-Powered Tutors", BEA 2025',
      },
      // Upstream paths unverified: taken from the paths other projects cite for these files.
      [
        [
          'mrbench/mrbench_v3_devset.json',
          'BEA_Shared_Task_2025_Datasets/mrbench_v3_devset.json',
          'a395feab801de50d44b73e1e9b88f84824a1f1d92e15ae86842d90c2b6dbf33c',
          1578346,
        ],
        ['mrbench/MRBench_V1.json', 'MRBench/MRBench_V1.json', '77a33ab81ca9c773d22faee2be7a7bb43b203a06497a5daa35d715f9ada3a6f3', 1368365],
      ],
    ),
    dataset(
      {
        name: 'aitutor-evalkit',
        title: "AITutor-EvalKit: a sample of MRBench replies with human labels and three judges' predictions",
        repo: 'kaushal0494/AITutor-EvalKit',
        commit: 'a71078456a90a7bb616f7c7e1de83f0bfbc44ab1',
        licence: "CC BY-SA 4.0 (derived from MRBench; the toolkit's code is MIT)",
        cite: 'Maurya et al., NAACL 2025 and Kochmar et al., BEA 2025, via the AITutor-EvalKit toolkit (EduNLP Lab, MBZUAI)',
      },
      [
        [
          'aitutor-evalkit/auto_model_predictions.json',
          'assets/outputs/auto_model_predictions.json',
          '471a526eb4d2a6c098032d69e5ad0d395cff6169b2de7e2fcee37c319232f5f1',
          50718,
        ],
        [
          'aitutor-evalkit/gpt5_model_predictions.json',
          'assets/outputs/gpt5_model_predictions.json',
          '39b8ea56ee3e8c56f48d23fb006e108f5788d5fe65b9766704be57fc302f4cf6',
          103434,
        ],
        [
          'aitutor-evalkit/prometheus_model_predictions.json',
          'assets/outputs/prometheus_model_predictions.json',
          '1edf803a0c1f51165788d89c3c84bd9ef30824ba7cf97c798fca6f78ee8b69dd',
          84550,
        ],
        [
          'aitutor-evalkit/test_sample.json',
          'assets/data/test_data/test_sample.json',
          '4c2e03d1f2d334421a4663f947723c002ce8517bfaeb2fc4be2b15721f109d56',
          27250,
        ],
      ],
    ),
    dataset(
      {
        name: 'mathtutorbench',
        title: 'MathTutorBench: truncated MathDial and Bridge dialogues with the ground-truth next teacher turn',
        repo: 'eth-lre/mathtutorbench',
        commit: '54b6213',
        licence: 'CC BY-SA 4.0',
        cite: 'Macina et al., "MathTutorBench: A Benchmark for Measuring Open-ended Pedagogical Capabilities of LLM Tutors", 2025',
      },
      // Upstream paths unverified: the repository's task configurations read `dataset/mathdial_bridge*.json`.
      [
        [
          'mathtutorbench/mathdial_bridge.json',
          'dataset/mathdial_bridge.json',
          '96609c808383eea57d16bb24a49f302a9d84ffa323571c5989e57638bbaf2066',
          1550455,
        ],
        [
          'mathtutorbench/mathdial_bridge_hard.json',
          'dataset/mathdial_bridge_hard.json',
          '29a18632ae1c90395d7871513ff006363c781b955a7cd8ca403688ac1d2edfe4',
          718256,
        ],
      ],
    ),
  ],
};

/** The dataset names `--only` accepts, in manifest order. */
export const datasetNames = (manifest: Manifest = PUBLIC_DATA_MANIFEST) => manifest.datasets.map((d) => d.name);
