// Written by test/uncertainty/reference/lm_polygraph_reference.py from lm-polygraph's own code (see there):
//   python3 test/uncertainty/reference/lm_polygraph_reference.py /work/.mirror/IINemo+lm-polygraph/repo /work/.mirror/nltk+nltk/repo
// lm-polygraph efea882d810d07770e71d3a80e02416d09751435, nltk f2a92bd7e360e39a4439e4d97540fd68f2721451, numpy 2.4.6, python 3.11.7.
// Numbers are strings where JSON has no literal ("NaN", "Infinity", "-Infinity").
export const REFERENCE = {
 "inputs": {
  "greedy_log_probs": [
   [
    "-7.730255944014736",
    "-9.917717409031129",
    "-1.5712006546475554",
    "-0.7545631351003084",
    "-1.221092205195414",
    "-4.73931193858305",
    "-4.025903590644908"
   ],
   [
    "-4.3731910320127945",
    "-1.0536117487126346",
    "-2.046162411634329",
    "-3.673341669673655",
    "-2.373849852662076",
    "-1.0694850413326966",
    "-3.041047003844414"
   ],
   [
    "-3.245778314220551",
    "-1.2243345538260597",
    "-1.92805782533222",
    "-4.25843930216817",
    "-Infinity",
    "-0.7773196029360108",
    "-3.16550896941361"
   ],
   [
    "-1.918791983872791",
    "-4.347864645304652",
    "-1.1413792559342197",
    "-0.9772849024300995",
    "-1.9829107569170619",
    "-5.145963171381936",
    "-6.829940503439266"
   ],
   [
    "-0.6250212778105659",
    "-5.015653398382716",
    "-0.8102115321561643",
    "-5.383949086796577",
    "-7.266972870869615",
    "-4.9011073388291235",
    "-7.375418527971341"
   ]
  ],
  "greedy_log_likelihoods": [
   "-0.7545631351003084",
   "-1.0536117487126346",
   "-0.7773196029360108",
   "-0.9772849024300995",
   "-0.6250212778105659"
  ],
  "sample_texts": [
   "The capital of France is Paris.",
   "Paris is the capital city of France",
   "It is Lyon, I believe.",
   "paris, the capital of france",
   "The answer is Marseille running quickly"
  ],
  "sample_log_probs": [
   "-5.65850866674687",
   "-2.8861031389997316",
   "-3.225642027998666",
   "-4.688558356806326",
   "-3.0395814641591477"
  ],
  "sample_log_likelihoods": [
   [
    "-0.4234733243478767",
    "-1.2229471856156136",
    "-0.8506379569439362",
    "-1.9504847755938468",
    "-0.5854240347693697",
    "-0.5741490656242789",
    "-0.05139232385194781"
   ],
   [
    "-0.06483142187345436",
    "-0.5382700031220969",
    "-0.04390261715627286",
    "-0.24335547762988075",
    "-0.2478984588732471",
    "-0.17769166580967788",
    "-1.5701534945351017"
   ],
   [
    "-0.5700607796082322",
    "-0.47809510330338384",
    "-0.9001502880002631",
    "-0.9687771778683351",
    "-0.19262201991550618",
    "-0.11593665930294617"
   ],
   [
    "-1.6390101185874872",
    "-1.5113726495618311",
    "-0.4900381244287103",
    "-0.425805837731246",
    "-0.4661528722273763",
    "-0.15617875426967476"
   ],
   [
    "-0.39211555267477377",
    "-0.9694179930641651",
    "-0.7914486424861094",
    "-0.0676052803403997",
    "-0.8082349899726016",
    "-0.010759005621098439"
   ]
  ],
  "semantic_matrix_entail": [
   [
    "0.8433226297185188",
    "0.6317671890537524",
    "0.08668597621811146",
    "0.882824504636737",
    "0.11039128531771145"
   ],
   [
    "0.5628106969745921",
    "0.9238908736520314",
    "0.19641884126769946",
    "0.3",
    "0.26830010807394644"
   ],
   [
    "0.09539954189625754",
    "0.23735119120287937",
    "0.8002007424288686",
    "0.10226271463552973",
    "0.2924613220132677"
   ],
   [
    "0.6833073250161175",
    "0.6434789683385427",
    "0.2988307023356209",
    "0.6332804343427147",
    "0.11871322924120326"
   ],
   [
    "0.09880152316833342",
    "0.08043947886487843",
    "0.03900891002378192",
    "0.1240870517015145",
    "0.6893431152776087"
   ]
  ],
  "semantic_matrix_contra": [
   [
    "0.0218685337159431",
    "0.006090634264374435",
    "0.40608878079281036",
    "0.004746650477592252",
    "0.6247169886955491"
   ],
   [
    "0.05600019113873174",
    "0.010309779858378483",
    "0.042765695005188745",
    "0.25",
    "0.14273895433577097"
   ],
   [
    "0.27336601892128637",
    "0.27137141167397166",
    "0.012534171319997811",
    "0.6742138652802443",
    "0.5861261451918217"
   ],
   [
    "0.00802800940721274",
    "0.011940263505963108",
    "0.5721663736579635",
    "0.05256632289502575",
    "0.4035261404074924"
   ],
   [
    "0.05770245395713335",
    "0.007384353196380659",
    "0.24602995154652355",
    "0.4913058917205989",
    "0.055030844377003445"
   ]
  ],
  "sample_embeddings": [
   [
    "0.32637618017427145",
    "0.6057781913426709",
    "1.100045566577106",
    "0.3619022958593807",
    "-1.1884839010043575",
    "1.8788355367218468"
   ],
   [
    "0.2582693128871191",
    "-0.5303995787367197",
    "-1.5528099975648566",
    "0.6603080206024908",
    "-1.4772267630150608",
    "1.2845638520138312"
   ],
   [
    "0.30328371320507",
    "-1.7464921841302476",
    "-0.3994212709668019",
    "1.9062545848276309",
    "-1.8983524859691752",
    "-0.51701828470523"
   ],
   [
    "-2.1488657841532075",
    "0.13091409264377976",
    "1.8677707887005994",
    "-0.057285451728603734",
    "-0.15617426916330202",
    "-0.35388300085504293"
   ],
   [
    "-0.3120102149057473",
    "-0.3912187698204805",
    "0.6617662796065238",
    "1.0462930927558534",
    "-2.4450450490303193",
    "-2.737119094352514"
   ]
  ],
  "greedy_sentence_similarity": [
   0.91,
   0.83,
   0.12,
   0.88,
   0.05
  ],
  "p_true": -0.3566749439387324,
  "greedy_texts": "Paris. Probability: 0.85"
 },
 "entropy": [
  "1.1585860420745295",
  "1.5136201008206291",
  "1.3177587134055375",
  "1.3805301831343042",
  "0.799026894489996"
 ],
 "classes": {
  "sample_to_class": [
   0,
   0,
   1,
   0,
   2
  ],
  "class_to_sample": [
   [
    0,
    1,
    3
   ],
   [
    2
   ],
   [
    4
   ]
  ]
 },
 "scores": {
  "MaximumSequenceProbability": "4.187800666989619",
  "Perplexity": "0.8375601333979239",
  "MeanTokenEntropy": "1.2339043867849995",
  "SelfCertainty": "-1.466230878864383",
  "RenyiNeg": "-3.6522148596288453",
  "FisherRao": "0.29542892484965194",
  "MonteCarloSequenceEntropy": "3.8996787309421483",
  "MonteCarloNormalizedSequenceEntropy": "0.6092578275106123",
  "SemanticEntropy": "2.861765274990181",
  "SemanticEntropyEmpirical": "0.9502705392332345",
  "SemanticEntropy (Direct)": "0.8244473827452349",
  "SemanticEntropyUnique": "2.861765274990181",
  "LexicalSimilarity_rougeL": "-0.3375291375291375",
  "LexicalSimilarity_rouge1": "-0.4018648018648018",
  "LexicalSimilarity_rouge2": "-0.143030303030303",
  "LexicalSimilarity_BLEU": "-2.137698005424783e-155",
  "NumSemSets": "2.0",
  "EigValLaplacian_NLI_score_entail": "2.1432961082374797",
  "EigValLaplacian_NLI_score_contra": "1.287324644274997",
  "DegMat_NLI_score_entail": "0.6102648657839912",
  "DegMat_NLI_score_contra": "0.21154473701371834",
  "Eccentricity_NLI_score_entail": "1.732053973402445",
  "Eccentricity_NLI_score_contra": "1.41507207489439",
  "EigValLaplacian_Jaccard_score": "2.684991968599611",
  "DegMat_Jaccard_score": "0.6024675324675325",
  "Eccentricity_Jaccard_score": "2.0",
  "PTrue": "0.3566749439387324",
  "EigenScore": "1.483754791529671",
  "Verbalized1S": "0.15000000000000002",
  "CocoaMSP": "1.8510078948094117",
  "CocoaPPL": "0.3702015789618824",
  "CocoaMTE": "0.5453857389589698"
 },
 "edge": {
  "k1": {
   "MonteCarloSequenceEntropy": "5.65850866674687",
   "MonteCarloNormalizedSequenceEntropy": "0.8083583809638385",
   "SemanticEntropy": "5.65850866674687",
   "LexicalSimilarity_rougeL": "NaN",
   "NumSemSets": "1.0",
   "EigValLaplacian_NLI_score_entail": "1.0000000000000002",
   "DegMat_NLI_score_entail": "0.1566773702814812",
   "Eccentricity_NLI_score_entail": "0.0",
   "EigenScore": "1.643343852751949"
  },
  "identical": {
   "SemanticEntropy": "-1.1862943611198906",
   "SemanticEntropyUnique": "0.2",
   "LexicalSimilarity_rougeL": "-1.0",
   "LexicalSimilarity_BLEU": "-1.0",
   "NumSemSets": "1.0",
   "EigValLaplacian_NLI_score_entail": "1.0000000000000004",
   "DegMat_NLI_score_entail": "0.030000000000000027",
   "Eccentricity_NLI_score_entail": "0.0",
   "Eccentricity_Jaccard_score": "0.0"
  },
  "empty_greedy": {
   "MaximumSequenceProbability": "-0.0",
   "Perplexity": "NaN",
   "MeanTokenEntropy": "NaN",
   "SelfCertainty": "NaN",
   "RenyiNeg": "raises",
   "FisherRao": "raises",
   "CocoaMSP": "-0.0",
   "CocoaPPL": "NaN"
  },
  "empty_samples": {
   "LexicalSimilarity_rougeL": "-0.0",
   "LexicalSimilarity_rouge1": "-0.0",
   "LexicalSimilarity_BLEU": "-0.0",
   "DegMat_Jaccard_score": "0.6666666666666666",
   "EigValLaplacian_Jaccard_score": "3.0",
   "MonteCarloNormalizedSequenceEntropy": "0.7"
  },
  "neg_inf": {
   "MaximumSequenceProbability": "Infinity",
   "Perplexity": "Infinity",
   "MeanTokenEntropy": "0.6165842631317179",
   "SelfCertainty": "-0.13523650816658184",
   "RenyiNeg": "-1.813420733168007",
   "FisherRao": "0.2689213740988133",
   "CocoaMSP": "Infinity",
   "CocoaMTE": "0.4007797710356166"
  },
  "neg_inf_entropy": [
   "0.8323955818399389",
   "-0.0",
   "1.0173572075552149"
  ],
  "neg_inf_samples": {
   "MonteCarloSequenceEntropy": "Infinity",
   "MonteCarloNormalizedSequenceEntropy": "Infinity",
   "SemanticEntropy": "0.8333333333333334"
  }
 },
 "metricInputs": {
  "ue": [
   "1.0037246850315327",
   "1.0023787245290476",
   "-1.5358227785193723",
   "-0.35292724880360987",
   "0.29624776715323653",
   "0.6734833836993913",
   "0.07506591848575707",
   "0.2549741005327368",
   "-0.2861217483707138",
   "0.7360549193688412",
   "-0.08423272286890403",
   "-0.31761802872938766",
   "-0.4105796502525977",
   "-0.7779058109393737",
   "0.638990576373326",
   "0.2525834565710265",
   "0.20735221862054537",
   "-0.37040971814785745",
   "0.6900778731821201",
   "0.2319338690055988",
   "-1.2230539607852084",
   "-2.59774732148878",
   "-0.5711171546108783",
   "-0.16081856945479495",
   "2.0548609247879894",
   "1.3692423554885849",
   "0.7697395356377859",
   "2.423165798863212",
   "-0.5912988795411409",
   "0.15528180431941552",
   "0.8010423099769229",
   "-0.04448479313778214",
   "-0.21356634240823932",
   "0.40054298015273765",
   "-0.18787722501741055",
   "1.155819801078235",
   "-2.015411542036465",
   "0.44578619232370015",
   "1.7056273598421068",
   "-0.6335939899657264"
  ],
  "ueTies": [
   "1.0",
   "1.0",
   "-2.0",
   "-0.0",
   "0.0",
   "1.0",
   "0.0",
   "0.0",
   "-0.0",
   "1.0",
   "-0.0",
   "-0.0",
   "-0.0",
   "-1.0",
   "1.0",
   "0.0",
   "0.0",
   "-0.0",
   "1.0",
   "0.0",
   "-1.0",
   "-3.0",
   "-1.0",
   "-0.0",
   "2.0",
   "1.0",
   "1.0",
   "2.0",
   "-1.0",
   "0.0",
   "1.0",
   "-0.0",
   "-0.0",
   "0.0",
   "-0.0",
   "1.0",
   "-2.0",
   "0.0",
   "2.0",
   "-1.0"
  ],
  "binary": [
   "0.0",
   "0.0",
   "1.0",
   "0.0",
   "1.0",
   "0.0",
   "1.0",
   "1.0",
   "0.0",
   "0.0",
   "1.0",
   "0.0",
   "1.0",
   "1.0",
   "1.0",
   "1.0",
   "1.0",
   "1.0",
   "0.0",
   "1.0",
   "0.0",
   "1.0",
   "1.0",
   "1.0",
   "0.0",
   "1.0",
   "0.0",
   "0.0",
   "1.0",
   "1.0",
   "0.0",
   "0.0",
   "0.0",
   "1.0",
   "0.0",
   "0.0",
   "1.0",
   "1.0",
   "1.0",
   "1.0"
  ],
  "graded": [
   "0.364942034589551",
   "0.2538934343847539",
   "0.4470222604909409",
   "0.6944245774997851",
   "0.3077440475579933",
   "0.7180689212166773",
   "0.4796279041302102",
   "0.4857889092535291",
   "0.26584665094523624",
   "0.5391199265131721",
   "0.6490159164560864",
   "0.3798905405897838",
   "0.5231400157001169",
   "0.4214467611356069",
   "0.7272278890903148",
   "0.18053693751743033",
   "0.6696092928457162",
   "0.38244169504919345",
   "0.81796618163239",
   "0.7720597112823753",
   "0.9609506840021833",
   "0.8972240200902855",
   "0.5280423981950545",
   "0.6653679075968462",
   "0.1817932630228533",
   "0.0",
   "0.5394228254341629",
   "0.17046673477878233",
   "0.5609429405397851",
   "0.44166150308588126",
   "0.41464722379249436",
   "0.6380300927583076",
   "0.5708182050294431",
   "0.4375635374331762",
   "0.20357994404484908",
   "0.6182083992560601",
   "0.8713435918305257",
   "0.17626310143926296",
   "0.29559762802843714",
   "0.3518704030663372"
  ]
 },
 "metrics": {
  "roc-auc": "0.30179028132992325",
  "roc-auc ties": "0.23529411764705882",
  "pr-auc": "0.4729371899563476",
  "pr-auc ties": "0.48522778631474284",
  "prr": "0.6078528785854218",
  "prr_0.5": "0.550866707942968",
  "prr binary": "0.720654839964712",
  "prr oracle": "0.7117283832347473",
  "rcc-auc": "0.39214712141457814",
  "rcc-auc ties": "0.4055814013585115",
  "rcc-auc unnormalized": "8.940098483213086",
  "spearmanr": "0.37542213883677306",
  "spearmanr ties": "0.4846811645652039",
  "kendalltau": "0.2641025641025641",
  "kendalltau ties": "0.44637577991911215",
  "ece": "0.3273352435917375",
  "ece normalized": "0.36437920896808285"
 },
 "text": {
  "stems": {
   "running": "run",
   "quickly": "quickli",
   "houses": "hous",
   "capital": "capit",
   "generalization": "gener",
   "ponies": "poni",
   "ties": "tie",
   "dying": "die",
   "skies": "sky",
   "agreed": "agre",
   "feed": "feed",
   "hopping": "hop",
   "filing": "file",
   "happy": "happi",
   "sky": "sky",
   "relational": "relat",
   "conditional": "condit",
   "rational": "ration",
   "digitizer": "digit",
   "conformabli": "conform",
   "radically": "radic",
   "differently": "differ",
   "vilely": "vile",
   "analogously": "analog",
   "vietnamization": "vietnam",
   "predication": "predic",
   "operator": "oper",
   "feudalism": "feudal",
   "decisiveness": "decis",
   "hopefulness": "hope",
   "callousness": "callous",
   "formality": "formal",
   "sensitivity": "sensit",
   "sensibility": "sensibl",
   "triplicate": "triplic",
   "formative": "form",
   "formalize": "formal",
   "electricity": "electr",
   "electrical": "electr",
   "hopeful": "hope",
   "goodness": "good",
   "revival": "reviv",
   "allowance": "allow",
   "inference": "infer",
   "airliner": "airlin",
   "gyroscopic": "gyroscop",
   "adjustable": "adjust",
   "defensible": "defens",
   "irritant": "irrit",
   "replacement": "replac",
   "adjustment": "adjust",
   "dependent": "depend",
   "adoption": "adopt",
   "homologou": "homolog",
   "communism": "commun",
   "activate": "activ",
   "angulariti": "angular",
   "homologous": "homolog",
   "effective": "effect",
   "bowdlerize": "bowdler",
   "probate": "probat",
   "rate": "rate",
   "cease": "ceas",
   "controll": "control",
   "roll": "roll",
   "fully": "fulli",
   "analogi": "analog",
   "archaeology": "archaeolog",
   "innings": "inning",
   "proceed": "proceed",
   "news": "news",
   "caresses": "caress",
   "ies": "i",
   "tied": "tie",
   "cried": "cri",
   "sing": "sing",
   "bled": "bled",
   "filled": "fill",
   "hissing": "hiss",
   "fizzed": "fizz",
   "failing": "fail",
   "possibly": "possibl",
   "generously": "gener",
   "fulli": "fulli"
  },
  "rouge": [
   [
    "The capital of France is Paris.",
    "Paris is the capital city of France",
    0.923076923076923,
    0.3636363636363636,
    0.6153846153846153
   ],
   [
    "The capital of France is Paris.",
    "It is Lyon, I believe.",
    0.1818181818181818,
    0.0,
    0.1818181818181818
   ],
   [
    "The capital of France is Paris.",
    "paris, the capital of france",
    0.9090909090909091,
    0.6666666666666665,
    0.7272727272727272
   ],
   [
    "The capital of France is Paris.",
    "The answer is Marseille running quickly",
    0.3333333333333333,
    0.0,
    0.3333333333333333
   ],
   [
    "Paris is the capital city of France",
    "It is Lyon, I believe.",
    0.16666666666666666,
    0.0,
    0.16666666666666666
   ],
   [
    "Paris is the capital city of France",
    "paris, the capital of france",
    0.8333333333333333,
    0.4,
    0.8333333333333333
   ],
   [
    "Paris is the capital city of France",
    "The answer is Marseille running quickly",
    0.30769230769230765,
    0.0,
    0.15384615384615383
   ],
   [
    "It is Lyon, I believe.",
    "paris, the capital of france",
    0.0,
    0.0,
    0.0
   ],
   [
    "It is Lyon, I believe.",
    "The answer is Marseille running quickly",
    0.1818181818181818,
    0.0,
    0.1818181818181818
   ],
   [
    "paris, the capital of france",
    "The answer is Marseille running quickly",
    0.1818181818181818,
    0.0,
    0.1818181818181818
   ]
  ]
 }
} as const;
